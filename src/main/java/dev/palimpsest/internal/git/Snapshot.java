package dev.palimpsest.internal.git;

import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * The tree of one commit, read by path. Not thread-safe (owns an {@link ObjectReader}); close it.
 */
public final class Snapshot implements AutoCloseable {
    private final ObjectReader reader;
    private final ObjectId commit;
    private final ObjectId tree;

    private Snapshot(ObjectReader reader, ObjectId commit, ObjectId tree) {
        this.reader = reader;
        this.commit = commit;
        this.tree = tree;
    }

    /**
     * A snapshot of {@code commit}, a commit known to exist (callers check unknown ones with
     * {@code Commits.require} first); a missing one is an internal failure.
     */
    public static Snapshot of(GitRepo repo, ObjectId commit) {
        ObjectReader reader = repo.newReader();
        try (RevWalk walk = new RevWalk(reader)) {
            RevCommit c = walk.parseCommit(commit);
            return new Snapshot(reader, c.copy(), c.getTree().copy());
        } catch (org.eclipse.jgit.errors.MissingObjectException
                | org.eclipse.jgit.errors.IncorrectObjectTypeException e) {
            reader.close();
            throw new PalimpsestInternalException("no commit " + commit.name() + " in this store", e);
        } catch (IOException e) {
            reader.close();
            throw new PalimpsestInternalException("cannot read commit " + commit.name(), e);
        }
    }

    public ObjectId commit() {
        return commit;
    }

    public ObjectId tree() {
        return tree;
    }

    public ObjectReader reader() {
        return reader;
    }

    /** The blob at {@code path}, or null when there is no file there. */
    public ObjectId blobAt(String path) {
        try (TreeWalk tw = TreeWalk.forPath(reader, path, tree)) {
            if (tw == null || (tw.getRawMode(0) & 0170000) != 0100000) {
                return null;
            }
            return tw.getObjectId(0);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read tree of " + commit.name(), e);
        }
    }

    /**
     * The largest blob a reader loads: well above {@link dev.palimpsest.model.Limits#MAX_FILE}, so
     * files a store accepted before the limits existed stay readable.
     */
    public static final int MAX_READ = 64 << 20;

    public byte[] read(ObjectId blob) {
        try {
            return reader.open(blob, Constants.OBJ_BLOB).getCachedBytes(MAX_READ);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read blob " + blob.name(), e);
        }
    }

    /** The bytes at {@code path}, or null when there is no file there. */
    public byte[] readPath(String path) {
        ObjectId b = blobAt(path);
        return b == null ? null : read(b);
    }

    @Override
    public void close() {
        reader.close();
    }
}
