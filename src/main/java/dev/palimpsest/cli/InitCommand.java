package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "init", description = "Create a store: genesis commit with config and the actor's key, signed.")
final class InitCommand extends Context implements Callable<Integer> {
    @Option(names = "--actor", required = true, paramLabel = "NAME",
            description = "The first actor; its key is generated in the key home if absent.")
    String actor;

    @Option(names = "--email", paramLabel = "E", description = "E-mail of a newly generated key (default <actor>@palimpsest.local).")
    String email;

    @Override
    public Integer call() throws Exception {
        String mail = TextInput.arg("--email", email);
        try (Store store = Store.init(storePath(), home(), Parse.actor("--actor", actor), mail, StoreOptions.defaults())) {
            if (json()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("store", store.gitDir().toString());
                m.put("commit", store.head().hex());
                printJson(m);
            } else {
                out().println("initialised " + store.gitDir() + " at " + store.head().hex());
            }
        }
        return Main.OK;
    }
}
