package dev.palimpsest.it;

import dev.palimpsest.model.FactSpec;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Kind;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Child process of {@link CrashTest}: opens an existing store (fsync on) and commits one fact per
 * transaction until it is killed. Prints {@code ready} once the store is open, then the id of every
 * commit right after {@code commit()} returned, one per line, flushed.
 *
 * <p>Arguments: store directory, key home directory, actor name.
 */
public final class CrashWriterMain {
    private CrashWriterMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: CrashWriterMain STORE HOME ACTOR");
            System.exit(2);
        }
        PrintStream out = System.out;
        ActorName actor = ActorName.of(args[2]);
        long pid = ProcessHandle.current().pid();
        try (Store store = Store.open(Path.of(args[0]), new KeyHome(Path.of(args[1])), StoreOptions.defaults())) {
            out.println("ready");
            out.flush();
            for (long i = 0; ; i++) {
                Transaction tx = store.begin(actor);
                tx.assertFact(FactSpec.of(Kind.CLAIM, "crash writer " + pid + " fact " + i));
                String hex = tx.commit().id().hex();
                out.println(hex);
                out.flush();
            }
        }
    }
}
