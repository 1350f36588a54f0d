package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.StoreInitializer;
import dev.palimpsest.model.ActorName;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "init", description = "Create a store: genesis commit with config and the actor's key, signed.")
final class InitCommand extends Context implements Callable<Integer> {
    @Option(names = "--actor", required = true, description = "The first actor; its key is generated if absent.")
    String actor;

    @Option(names = "--email", description = "E-mail of a newly generated key (default <actor>@palimpsest.local).")
    String email;

    @Override
    public Integer call() throws Exception {
        StoreInitializer init = Store.initializer(storePath()).home(home()).actor(ActorName.of(actor));
        if (email != null) {
            init.email(email);
        }
        try (Store store = init.create()) {
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
