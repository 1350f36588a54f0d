package dev.palimpsest.cli;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.KeyRole;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "keys", description = "Trusted keys: who may sign commits, from which commit on.",
        subcommands = {KeysCommand.Add.class, KeysCommand.Revoke.class, KeysCommand.ListKeys.class,
            KeysCommand.Generate.class})
final class KeysCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new Main.UsageException("name a subcommand: keys add | revoke | list | generate");
    }

    @Command(name = "add", description = "Trust a new actor's public key (one commit signed by --actor).")
    static final class Add extends Context implements Callable<Integer> {
        @Option(names = "--actor", required = true, description = "Who signs the change (an already-trusted actor).")
        String actor;

        @Option(names = "--name", required = true, description = "The new actor.")
        String name;

        @Option(names = "--key", required = true, paramLabel = "FILE.asc", description = "The armored Ed25519 public key.")
        Path key;

        @Option(names = "--role", defaultValue = "agent", description = "agent (default) or human.")
        String role;

        @Override
        public Integer call() throws Exception {
            if (!Files.isRegularFile(key)) {
                throw new IllegalArgumentException("--key " + key + ": no such file");
            }
            String armored = Files.readString(key, StandardCharsets.US_ASCII);
            try (Store store = open()) {
                ActorName who = ActorName.of(name);
                CommitResult r = store.begin(ActorName.of(actor)).addKey(who, armored, KeyRole.parse(role)).commit();
                ActorKey added = store.keys(r.id()).stream().filter(k -> k.name().equals(who)).findFirst()
                        .orElseThrow();
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>(KeysCommand.json(added));
                    m.put("commit", r.id().hex());
                    printJson(m);
                } else {
                    out().println("added key " + added.name() + " (" + added.role() + ", " + added.fingerprint()
                            + ") " + r.id().hex());
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "revoke", description = "Stop trusting an actor's key from this commit on (signed by --actor).")
    static final class Revoke extends Context implements Callable<Integer> {
        @Option(names = "--actor", required = true, description = "Who signs the change (a trusted actor).")
        String actor;

        @Option(names = "--name", required = true, description = "The actor whose key is revoked.")
        String name;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                CommitResult r = store.begin(ActorName.of(actor)).revokeKey(ActorName.of(name)).commit();
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("name", name);
                    m.put("commit", r.id().hex());
                    printJson(m);
                } else {
                    out().println("revoked key " + name + " " + r.id().hex());
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "list", description = "List the keys trusted at a commit.")
    static final class ListKeys extends Context implements Callable<Integer> {
        @Option(names = "--at", paramLabel = "COMMIT", description = "Default: main.")
        String at;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                List<ActorKey> keys = store.keys(at(store, at));
                if (json()) {
                    printJson(keys.stream().map(KeysCommand::json).toList());
                } else {
                    for (ActorKey k : keys) {
                        out().printf("%-20s %-6s %s%n", k.name(), k.role(), k.fingerprint());
                    }
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "generate", description = "Create an actor's secret key in the key home; print its public key.")
    static final class Generate extends Context implements Callable<Integer> {
        @Option(names = "--name", required = true, description = "The actor.")
        String name;

        @Option(names = "--email", description = "E-mail of the key's user id (default <name>@palimpsest.local).")
        String email;

        @Option(names = "--out", paramLabel = "FILE.asc", description = "Write the public key here instead of stdout.")
        Path outFile;

        @Override
        public Integer call() throws Exception {
            String armored = email == null ? home().generateKey(ActorName.of(name))
                    : home().generateKey(ActorName.of(name), email);
            if (outFile != null) {
                Files.writeString(outFile, armored, StandardCharsets.US_ASCII);
            } else {
                out().print(armored);
            }
            return Main.OK;
        }
    }

    static Map<String, Object> json(ActorKey k) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", k.name().value());
        m.put("role", k.role().value());
        m.put("fingerprint", k.fingerprint());
        return m;
    }
}
