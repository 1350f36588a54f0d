package dev.palimpsest.internal.forget;

import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Deletes every cache under a store's git directory that may hold plaintext of sealed content:
 * the search index folder, the claims log, the entailment state, the judge cache (and their
 * partly written {@code *.tmp} files). Each is derived from git (or, the judge cache, only asked
 * again), and rebuilt caches skip content they cannot open. Run after a forget destroyed keys, by
 * a process that has closed its own handles on them. The search index is deleted only when no
 * process holds its Lucene lock: its holder drops and deletes it when it sees the forget
 * ({@link TombstoneWatch}), so no process ever has its index deleted under it. The vector caches
 * are kept (they cost embedding again), but the vectors of every fact tombstoned at main's tip are
 * erased from each cache no process holds; a holder erases them when it sees the forget. Stateless.
 */
public final class Scrub {
    private Scrub() {}

    /** The paths it deleted, relative to the git directory; also erases forgotten facts' vectors. */
    public static List<String> caches(dev.palimpsest.internal.git.GitRepo repo) {
        List<String> deleted = caches(repo.gitDir());
        org.eclipse.jgit.lib.ObjectId head = repo.head();
        if (head != null) {
            List<String> ids = new ArrayList<>();
            Forgetting.tombstoned(repo, head).forEach(id -> ids.add(id.value()));
            dev.palimpsest.internal.embed.VectorCache.pruneUnheld(repo.gitDir(), ids);
        }
        return deleted;
    }

    /** The paths it deleted, relative to {@code gitDir} (vector caches untouched). */
    public static List<String> caches(Path gitDir) {
        Path idx = gitDir.resolve("palimpsest-index");
        List<String> deleted = new ArrayList<>();
        searchIndex(gitDir, deleted);
        if (Files.isDirectory(idx)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(idx)) {
                for (Path p : ds) {
                    String n = p.getFileName().toString();
                    if (n.startsWith("claims-v1.log") || n.startsWith("entail-v1.state") || n.startsWith("judge-cache.jsonl")) {
                        deleteTree(p, gitDir, deleted);
                    }
                }
            } catch (IOException e) {
                throw new PalimpsestInternalException("cannot scrub " + idx + ": " + e.getMessage(), e);
            }
        }
        return deleted;
    }

    /**
     * Deletes the search index folder unless a process (this one included) holds its Lucene lock;
     * true when it is gone.
     */
    public static boolean searchIndex(Path gitDir, List<String> deleted) {
        Path p = gitDir.resolve("palimpsest-index").resolve("search-v1");
        if (!Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            deleteTree(p, gitDir, deleted);
            return true;
        }
        // under the writer lock, which a process creating or opening the index holds too
        try (dev.palimpsest.internal.git.WriterLock.Held writers = new dev.palimpsest.internal.git.WriterLock(gitDir).acquire();
                org.apache.lucene.store.Directory dir = org.apache.lucene.store.FSDirectory.open(p);
                org.apache.lucene.store.Lock held = dir.obtainLock(org.apache.lucene.index.IndexWriter.WRITE_LOCK_NAME)) {
            try (Stream<Path> files = Files.list(p)) {
                for (Path f : files.toList()) {
                    if (!f.getFileName().toString().equals(org.apache.lucene.index.IndexWriter.WRITE_LOCK_NAME)) {
                        deleteTree(f, gitDir, new ArrayList<>());
                    }
                }
            }
            deleteTree(p, gitDir, deleted); // write.lock and the folder last, still under the writer lock
        } catch (org.apache.lucene.store.LockObtainFailedException e) {
            return false;
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot scrub " + p + ": " + e.getMessage(), e);
        }
        return true;
    }

    private static void deleteTree(Path p, Path gitDir, List<String> deleted) {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> all = Files.walk(p)) {
            for (Path q : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
            deleted.add(gitDir.relativize(p).toString());
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot scrub " + p + ": " + e.getMessage(), e);
        }
    }
}
