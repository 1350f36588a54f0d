package dev.palimpsest.internal.search;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.Lock;

/**
 * A process that holds a search index as a holder finishing its merges does: Lucene's lock and the
 * closing marker, for the given milliseconds, then the lock released and the marker deleted.
 * Arguments: the index folder, the marker, the milliseconds.
 */
public final class ClosingHolderMain {
    private ClosingHolderMain() {}

    public static void main(String[] args) throws Exception {
        Path index = Path.of(args[0]);
        Path marker = Path.of(args[1]);
        long millis = Long.parseLong(args[2]);
        try (Directory d = FSDirectory.open(index)) {
            Lock held = d.obtainLock(IndexWriter.WRITE_LOCK_NAME);
            Files.writeString(marker, ProcessHandle.current().pid() + " 1\n");
            System.out.println("held");
            System.out.flush();
            Thread.sleep(millis);
            held.close();
            Files.delete(marker);
        }
        System.out.println("released");
    }
}
