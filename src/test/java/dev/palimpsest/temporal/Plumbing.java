package dev.palimpsest.temporal;

import dev.palimpsest.testing.Forgery;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * Test-only git plumbing that writes what the Palimpsest writer never does: unsigned commits on side
 * branches and merge commits with several parents, with trees edited path by path from a base
 * commit. Uses plain JGit on the store's git directory. Not thread-safe; close it.
 */
final class Plumbing implements AutoCloseable {
    private static final PersonIdent WHO = new PersonIdent("plumber", "plumber@example.org",
            Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    private final Repository repo;
    private int counter;

    Plumbing(Path gitDir) throws IOException {
        this.repo = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
    }

    /** The YAML bytes of a fact without confidence. */
    static byte[] fact(FactId id, Kind kind, String body, Ref... refs) {
        return FactCodec.encode(new Fact(id, kind, body, null, List.of(refs)));
    }

    /** The blob id git gives {@code bytes}. */
    static BlobId blobOf(byte[] bytes) {
        return BlobId.of(new ObjectInserter.Formatter().idFor(Constants.OBJ_BLOB, bytes).name());
    }

    /** An edit map builder: path to bytes, null bytes remove the path. */
    static Edits edits() {
        return new Edits();
    }

    static final class Edits {
        final Map<String, byte[]> files = new LinkedHashMap<>();

        Edits put(FactId id, Kind kind, byte[] yaml) {
            files.put(StorePaths.factPath(kind, id), yaml);
            return this;
        }

        Edits remove(FactId id, Kind kind) {
            files.put(StorePaths.factPath(kind, id), null);
            return this;
        }

        /** Removes the fact's file and writes its retraction record pinning {@code retracted}. */
        Edits retract(FactId id, Kind kind, FactVersion retracted, String reason) {
            remove(id, kind);
            files.put(StorePaths.retractionPath(id),
                    FactCodec.encode(new RetractionRecord(retracted, reason, ActorName.of("plumber"))));
            return this;
        }

        Edits dropRetraction(FactId id) {
            files.put(StorePaths.retractionPath(id), null);
            return this;
        }
    }

    /**
     * Writes an unsigned commit with {@code parents} (first parent first) whose tree is the tree of
     * {@code base} with {@code edits} applied.
     */
    CommitId commit(CommitId base, Edits edits, CommitId... parents) throws IOException {
        ObjectId[] ps = new ObjectId[parents.length];
        for (int i = 0; i < parents.length; i++) {
            ps[i] = ObjectId.fromString(parents[i].hex());
        }
        ObjectId id = Forgery.commit(repo, ObjectId.fromString(base.hex()), edits.files, WHO,
                "plumbing commit " + (++counter) + "\n", ps);
        return CommitId.of(id.name());
    }

    /** Moves {@code refs/heads/<branch>} to {@code commit}, forcing it. */
    void setBranch(String branch, CommitId commit) throws IOException {
        RefUpdate u = repo.updateRef("refs/heads/" + branch);
        u.setNewObjectId(ObjectId.fromString(commit.hex()));
        u.setForceUpdate(true);
        u.disableRefLog();
        RefUpdate.Result r = u.update();
        if (r != RefUpdate.Result.NEW && r != RefUpdate.Result.FORCED && r != RefUpdate.Result.FAST_FORWARD
                && r != RefUpdate.Result.NO_CHANGE) {
            throw new IOException("cannot move " + branch + " to " + commit + ": " + r);
        }
    }

    @Override
    public void close() {
        repo.close();
    }
}
