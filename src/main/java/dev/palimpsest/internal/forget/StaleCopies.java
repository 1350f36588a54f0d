package dev.palimpsest.internal.forget;

import dev.palimpsest.internal.git.CacheLog;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.git.WriterLock;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The derived files that may still hold a forgotten fact's content: those saved at a commit whose
 * tree lacks the fact's tombstone (or whose commit cannot be told). Each such file is deleted when
 * that is safe (under the writer lock; the search index only when no process holds it); what
 * remains is reported. Stateless.
 */
public final class StaleCopies {
    static final String CLAIMS = "palimpsest-index/claims-v1.log";
    static final String SEARCH = "palimpsest-index/search-v1";
    static final String ENTAIL = "palimpsest-index/entail-v1.state";

    private StaleCopies() {}

    /** Deletes what it can of the derived files saved before {@code id}'s tombstone; returns the paths (relative to the git directory) it could not. */
    public static List<String> settle(GitRepo repo, FactId id) {
        Path git = repo.gitDir();
        List<String> left = new ArrayList<>();
        try (WriterLock.Held held = new WriterLock(git).acquire()) {
            Path claims = git.resolve(CLAIMS);
            if (Files.isRegularFile(claims, LinkOption.NOFOLLOW_LINKS) && !forgottenAt(repo, lastLogged(claims), id)) {
                delete(claims);
            }
            Path entail = git.resolve(ENTAIL);
            if (Files.isRegularFile(entail, LinkOption.NOFOLLOW_LINKS) && !forgottenAt(repo, entailCommit(git), id)) {
                delete(entail);
            }
            Path search = git.resolve(SEARCH);
            if (Files.isDirectory(search, LinkOption.NOFOLLOW_LINKS) && committed(search)
                    && !forgottenAt(repo, indexed(search), id) && !Scrub.searchIndex(git, new ArrayList<>())) {
                left.add(SEARCH);
            }
        }
        return left;
    }

    private static boolean forgottenAt(GitRepo repo, ObjectId commit, FactId id) {
        if (commit == null) {
            return false;
        }
        try (Snapshot s = Snapshot.of(repo, commit)) {
            return Forgetting.tombstone(s, id) != null;
        } catch (RuntimeException e) {
            return false; // not a commit here
        }
    }

    /** The commit of the claims log's last record, or null when it has none or does not read. */
    private static ObjectId lastLogged(Path log) {
        try {
            var records = CacheLog.records(Files.readAllBytes(log), b -> ObjectId.fromRaw(CacheLog.take(b, 20)));
            return records.isEmpty() ? null : records.get(records.size() - 1).record();
        } catch (IOException | CacheLog.Corrupt e) {
            return null;
        }
    }

    /** The commit the entailment state was saved for: the payload's first 20 bytes, after magic, version and length. */
    private static ObjectId entailCommit(Path git) {
        try {
            byte[] b = Files.readAllBytes(git.resolve(ENTAIL));
            return b.length < 32 ? null : ObjectId.fromRaw(b, 12);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** True when the search index folder holds a Lucene commit (one being rebuilt has none yet: it holds nothing erased). */
    private static boolean committed(Path search) {
        try (var d = org.apache.lucene.store.FSDirectory.open(search)) {
            return org.apache.lucene.index.SegmentInfos.getLastCommitGeneration(d) >= 0;
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /** The commit the search index's last Lucene commit describes, or null. */
    private static ObjectId indexed(Path search) {
        try (var d = org.apache.lucene.store.FSDirectory.open(search)) {
            String c = org.apache.lucene.index.SegmentInfos.readLatestCommit(d).getUserData().get("commit");
            return c == null || !ObjectId.isId(c) ? null : ObjectId.fromString(c);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static void delete(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot delete " + f + ": " + e.getMessage(), e);
        }
    }
}
