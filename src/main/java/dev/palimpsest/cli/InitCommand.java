package dev.palimpsest.cli;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.StoreInitializer;
import dev.palimpsest.model.ActorName;
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

    @Option(names = "--encrypt", paramLabel = "MODE", defaultValue = "sensitive",
            description = "Which facts are sealed so they can be forgotten: all, sensitive (default: those written "
                    + "--sensitive or with --retain-until) or none.")
    String encrypt;

    @Option(names = "--agents-may", paramLabel = "GRANT", split = ",",
            description = "What agent keys may do that is refused to them by default (recorded as agents_may in "
                    + "palimpsest.yaml): override-human (retract or supersede a fact a human key wrote), "
                    + "retract-snapshot (retract a fact a live fact supersedes). A human key changes it later with"
                    + " policy agents-may.")
    java.util.List<String> agentsMay = new java.util.ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (!java.util.Set.of("all", "sensitive", "none").contains(encrypt)) {
            throw new Main.UsageException("--encrypt must be all, sensitive or none, not '" + encrypt + "'");
        }
        ActorName name = Parse.actor("--actor", actor);
        String mail = TextInput.arg("--email", email);
        java.util.Set<dev.palimpsest.model.AgentPermission> grants = new java.util.HashSet<>();
        for (String g : agentsMay) {
            try {
                grants.add(dev.palimpsest.model.AgentPermission.parse(g));
            } catch (IllegalArgumentException e) {
                throw new Main.UsageException("--agents-may: " + e.getMessage());
            }
        }
        StoreInitializer init = Store.initializer(storePath()).home(home()).actor(name).encrypt(encrypt)
                .agentsMay(grants);
        if (mail != null) {
            init.email(mail);
        }
        try (Store store = init.create()) {
            boolean generated = init.generatedKey().isPresent();
            if (json()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("store", store.gitDir().toString());
                m.put("commit", store.head().hex());
                m.put("key_file", home().secretKeyFile(name).toString());
                m.put("key_generated", generated);
                printJson(m);
            } else {
                out().println("initialised " + store.gitDir() + " at " + store.head().hex());
                spec.commandLine().getErr().println((generated ? "generated the secret key of " + name + " at " : "signed with the secret key at ")
                        + home().secretKeyFile(name) + (generated ? " (not passphrase-protected: keep it private)" : ""));
            }
        }
        return Main.OK;
    }
}
