package dev.palimpsest.it;

import dev.palimpsest.model.FactSpec;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Kind;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child process of {@link ConcurrencyTest}: opens an existing store (fsync off), prints
 * {@code ready}, waits for a line on stdin, then commits {@code count} single-fact transactions as
 * {@code alice}, printing each commit id once {@code commit()} returned. Exits 0 when all landed,
 * 1 on any failure (stack trace on stderr).
 *
 * <p>Arguments: store directory, key home directory, count, label (written into every fact body).
 */
public final class WriterMain {
    private WriterMain() {}

    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: WriterMain STORE HOME COUNT LABEL");
            System.exit(2);
        }
        PrintStream out = System.out;
        int count = Integer.parseInt(args[2]);
        String label = args[3];
        ActorName alice = ActorName.of("alice");
        try (Store store = Store.open(Path.of(args[0]), new KeyHome(Path.of(args[1])),
                StoreOptions.defaults().withFsync(false))) {
            out.println("ready");
            out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            for (int i = 0; i < count; i++) {
                Transaction tx = store.begin(alice);
                tx.assertFact(FactSpec.of(Kind.CLAIM, "fact " + i + " written by " + label));
                out.println(tx.commit().id().hex());
                out.flush();
            }
        } catch (Exception | Error e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }
}
