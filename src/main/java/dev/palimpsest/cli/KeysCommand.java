package dev.palimpsest.cli;

import dev.palimpsest.model.Limits;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.Violation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
        @Mixin
        Shared.Actor actor;

        @Option(names = "--name", required = true, paramLabel = "NAME", description = "The new actor.")
        String name;

        @Option(names = "--key", required = true, paramLabel = "FILE.asc", description = "The armored Ed25519 public key.")
        Path key;

        @Option(names = "--role", defaultValue = "agent", paramLabel = "ROLE", description = "agent (default) or human.")
        String role;

        @Override
        public Integer call() throws Exception {
            String armored = TextInput.utf8("--key " + key,
                    TextInput.bytes("--key " + key, key, Limits.MAX_FILE, home()));
            ActorName who = Parse.actor("--name", name);
            try (Store store = open()) {
                CommitResult r = store.begin(Parse.actor("--actor", actor.name)).addKey(who, armored, Parse.keyRole(role)).commit();
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
        @Mixin
        Shared.Actor actor;

        @Option(names = "--name", required = true, paramLabel = "NAME", description = "The actor whose key is revoked.")
        String name;

        @Override
        public Integer call() throws Exception {
            ActorName revoked = Parse.actor("--name", name);
            try (Store store = open()) {
                CommitResult r = store.begin(Parse.actor("--actor", actor.name)).revokeKey(revoked).commit();
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
        @Mixin
        Shared.At at;

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
        @Option(names = "--name", required = true, paramLabel = "NAME", description = "The actor.")
        String name;

        @Option(names = "--email", paramLabel = "E", description = "E-mail of the key's user id (default <name>@palimpsest.local).")
        String email;

        @Option(names = "--out", paramLabel = "FILE.asc", description = "Write the public key here instead of stdout.")
        Path outFile;

        @Override
        public Integer call() throws Exception {
            if (outFile != null && (Files.isDirectory(outFile) || !Files.isDirectory(outFile.toAbsolutePath().getParent()))) {
                throw new RejectedException(TextInput.FILE_UNWRITABLE, "--out " + outFile, Files.isDirectory(outFile)
                        ? "is a folder" : "its folder does not exist; nothing was generated");
            }
            ActorName generatedFor = Parse.actor("--name", name);
            String mail = TextInput.arg("--email", email);
            String armored = mail == null ? home().generateKey(generatedFor) : home().generateKey(generatedFor, mail);
            if (outFile != null) {
                try {
                    OutFile.write("--out", outFile, os -> os.write(armored.getBytes(StandardCharsets.US_ASCII)));
                } catch (RejectedException e) {
                    Violation v = e.violations().get(0);
                    throw new RejectedException(v.rule(), v.subject(), v.message() + "; the secret key was generated in "
                            + home().secretKeyFile(generatedFor));
                }
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
