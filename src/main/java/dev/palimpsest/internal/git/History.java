package dev.palimpsest.internal.git;

import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.LogEntry;
import dev.palimpsest.model.Trailer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.FooterLine;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevSort;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.AndTreeFilter;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/** Walks the ancestry of a commit: path histories, ancestry tests and the log. Stateless. */
public final class History {
    private History() {}

    /**
     * Every commit reachable from {@code start} that changed any of {@code paths}, newest first:
     * a commit whose tree differs there from its parent's (a root: from the empty tree), or a merge
     * commit whose tree differs there from every parent's. Full history: unlike git's default
     * simplification, both sides of a merge are walked, so concurrent versions are all listed.
     * A commit whose changed-path filter ({@link ChangedPaths}) proves the paths unchanged against its
     * first parent is skipped without a diff; returns how many commits were walked and diffed.
     */
    public static WalkStats changes(GitRepo repo, ObjectId start, List<String> paths, Consumer<RevCommit> each) {
        TreeFilter filter = AndTreeFilter.create(PathFilterGroup.createFromStrings(paths), TreeFilter.ANY_DIFF);
        ChangedPaths.View filters = repo.changedPaths().view();
        List<byte[]> raw = ChangedPaths.encode(paths);
        int walked = 0;
        int diffed = 0;
        try (RevWalk walk = new RevWalk(repo.repository());
                TreeWalk tw = new TreeWalk(repo.repository().newObjectReader())) {
            tw.setRecursive(true);
            tw.setFilter(filter);
            walk.sort(RevSort.TOPO);
            walk.markStart(walk.parseCommit(start));
            for (RevCommit c : walk) {
                walked++;
                if (filters.surelyUnchanged(c, raw)) {
                    continue; // unchanged against the first parent: not a change of the paths, merge or not
                }
                diffed++;
                boolean changed = true;
                if (c.getParentCount() == 0) {
                    changed = differs(tw, c.getTree(), null);
                }
                for (RevCommit p : c.getParents()) {
                    walk.parseHeaders(p);
                    changed &= differs(tw, c.getTree(), p.getTree());
                }
                if (changed) {
                    each.accept(c);
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot walk history from " + start.name(), e);
        }
        repo.changedPaths().walked(filters);
        return new WalkStats(walked, diffed);
    }

    /** What a path-limited walk cost: the commits it walked and those of them it diffed. */
    public record WalkStats(int walked, int diffed) {}

    private static boolean differs(TreeWalk tw, ObjectId tree, ObjectId parentTree) throws IOException {
        tw.reset();
        tw.addTree(tree);
        if (parentTree == null) {
            tw.addTree(new org.eclipse.jgit.treewalk.EmptyTreeIterator());
        } else {
            tw.addTree(parentTree);
        }
        return tw.next();
    }

    /** True when {@code ancestor} is {@code descendant} or one of its ancestors. */
    public static boolean isAncestorOrSelf(GitRepo repo, ObjectId ancestor, ObjectId descendant) {
        try (RevWalk walk = new RevWalk(repo.repository())) {
            return walk.isMergedInto(walk.parseCommit(ancestor), walk.parseCommit(descendant));
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot test ancestry of " + ancestor.name(), e);
        }
    }

    /** The log from {@code start}, newest first, at most {@code limit} entries (0: all). */
    public static List<LogEntry> log(GitRepo repo, ObjectId start, int limit) {
        List<LogEntry> out = new ArrayList<>();
        try (RevWalk walk = new RevWalk(repo.repository())) {
            walk.sort(RevSort.TOPO);
            walk.markStart(walk.parseCommit(start));
            for (RevCommit c : walk) {
                out.add(entry(c));
                if (limit > 0 && out.size() >= limit) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot walk history from " + start.name(), e);
        }
        return out;
    }

    public static LogEntry entry(RevCommit c) {
        List<CommitId> parents = new ArrayList<>();
        for (RevCommit p : c.getParents()) {
            parents.add(CommitId.of(p.name()));
        }
        List<Trailer> trailers = new ArrayList<>();
        for (FooterLine f : c.getFooterLines()) {
            trailers.add(new Trailer(f.getKey(), f.getValue()));
        }
        return new LogEntry(CommitId.of(c.name()), parents, c.getAuthorIdent().getName(),
                c.getAuthorIdent().getWhenAsInstant(), c.getShortMessage(), trailers);
    }
}
