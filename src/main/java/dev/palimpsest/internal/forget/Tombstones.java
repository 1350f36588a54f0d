package dev.palimpsest.internal.forget;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * The {@code tombstones/} folder of commits, compared by its tree id: two commits whose folders have
 * one id forgot the same facts, so "was anything forgotten between C and H" costs two tree lookups.
 * Stateless.
 */
public final class Tombstones {
    private Tombstones() {}

    /** The tree id of {@code commit}'s {@code tombstones/} folder, or the zero id when it has none (or commit is null). */
    public static ObjectId folder(ObjectReader reader, ObjectId commit) {
        if (commit == null) {
            return ObjectId.zeroId();
        }
        try {
            RevCommit c = RevCommit.parse(reader.open(commit, Constants.OBJ_COMMIT).getCachedBytes());
            try (TreeWalk tw = TreeWalk.forPath(reader, StorePaths.TOMBSTONES, c.getTree())) {
                return tw == null || tw.getFileMode(0) != FileMode.TREE ? ObjectId.zeroId() : tw.getObjectId(0);
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read the tombstones of " + commit.name() + ": " + e.getMessage(), e);
        }
    }

    /** As {@link #folder(ObjectReader, ObjectId)}, with a reader of its own. */
    public static ObjectId folder(GitRepo repo, ObjectId commit) {
        try (ObjectReader reader = repo.newReader()) {
            return folder(reader, commit);
        }
    }

    /**
     * The ids whose tombstone is in the folder {@code to} and not in the folder {@code from} (tree
     * ids from {@link #folder}; the zero id for none), in tree order.
     */
    public static List<FactId> added(ObjectReader reader, ObjectId from, ObjectId to) {
        List<FactId> out = new ArrayList<>();
        if (from.equals(to) || to.equals(ObjectId.zeroId())) {
            return out;
        }
        try (TreeWalk tw = new TreeWalk(reader)) {
            if (from.equals(ObjectId.zeroId())) {
                tw.addTree(new org.eclipse.jgit.treewalk.EmptyTreeIterator());
            } else {
                tw.addTree(from);
            }
            tw.addTree(to);
            tw.setRecursive(true);
            tw.setFilter(TreeFilter.ANY_DIFF);
            while (tw.next()) {
                if (tw.getRawMode(0) == 0 && tw.getRawMode(1) != 0) {
                    FactId id = StorePaths.idFromPath(tw.getPathString());
                    if (id != null) {
                        out.add(id);
                    }
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot compare tombstones " + from.name() + " and " + to.name() + ": "
                    + e.getMessage(), e);
        }
        return out;
    }

    /** The ids tombstoned at commit {@code to} and not at commit {@code from} (either may be null: no commit), in tree order. */
    public static List<FactId> addedBetweenCommits(GitRepo repo, ObjectId from, ObjectId to) {
        try (ObjectReader reader = repo.newReader()) {
            return added(reader, folder(reader, from), folder(reader, to));
        }
    }

    /** True when some fact is tombstoned at {@code to} and not at {@code from} (either may be null: no commit). */
    public static boolean addedBetween(GitRepo repo, ObjectId from, ObjectId to) {
        return !addedBetweenCommits(repo, from, to).isEmpty();
    }
}
