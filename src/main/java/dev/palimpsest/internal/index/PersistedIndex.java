package dev.palimpsest.internal.index;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The predicate index's persisted log as a file, read or deleted without opening an index (for
 * audits, and to force a rebuild). Stateless; safe from any thread (the log is only ever appended
 * to whole records or replaced by a rename).
 */
public final class PersistedIndex {
    private PersistedIndex() {}

    /** The persisted log as read: per commit, the fact events it records; corrupt when a bad header or tail was found. */
    public record Contents(Map<ObjectId, Map<String, FactState>> byCommit, boolean corrupt) {}

    /**
     * Reads the persisted log without touching any open index (for audits); a log of another
     * format version, or something other than a regular file in its place, reads as absent.
     */
    public static Contents read(GitRepo repo) {
        IndexLog log = new IndexLog(repo.gitDir());
        Map<ObjectId, Map<String, FactState>> out = new HashMap<>();
        try {
            if (!Files.exists(log.file()) || !log.usable() || log.otherVersion()) {
                return new Contents(out, false);
            }
            IndexLog.Read r = log.read(0);
            for (IndexLog.Entry e : r.entries()) {
                Map<String, FactState> events = new HashMap<>();
                e.events().forEach((k, v) -> events.put(k, new FactState(v)));
                out.put(e.commit(), events);
            }
            return new Contents(out, r.headerBad() || r.end() < log.size());
        } catch (IOException | RuntimeException e) {
            return new Contents(out, true);
        }
    }

    /** Deletes the persisted log (a regular file only), so the next open rebuilds it from git. */
    public static void discard(GitRepo repo) {
        Path file = new IndexLog(repo.gitDir()).file();
        try {
            if (Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.delete(file);
            }
        } catch (java.nio.file.NoSuchFileException e) {
            // gone already
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot discard the predicate index of " + repo.gitDir(), e);
        }
    }
}
