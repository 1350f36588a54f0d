package dev.palimpsest.internal.index;

import dev.palimpsest.internal.git.GitRepo;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Checks a persisted index log against git before it is used: the genesis it names is a root
 * commit of this repository, and the tip of each indexed first-parent chain is a commit here whose
 * first parent is the one logged. Commits are named by their content, so an existing tip vouches
 * for the logged ancestry it names; O(chains) object reads. Stateless.
 */
final class LogCheck {
    private LogCheck() {}

    /** Why the log cannot be used with {@code repo}, or null when git vouches for it. */
    static String againstGit(GitRepo repo, ObjectId genesis, List<IndexLog.Entry> entries, Collection<ObjectId> tips)
            throws IOException {
        Set<ObjectId> tipSet = new HashSet<>(tips);
        Map<ObjectId, ObjectId> expected = new HashMap<>();
        expected.put(genesis, null);
        for (IndexLog.Entry e : entries) {
            if (tipSet.contains(e.commit())) {
                expected.put(e.commit(), e.firstParent());
            }
        }
        try (ObjectReader reader = repo.newReader(); RevWalk walk = new RevWalk(reader)) {
            for (Map.Entry<ObjectId, ObjectId> x : expected.entrySet()) {
                RevCommit commit;
                try {
                    commit = walk.parseCommit(x.getKey());
                } catch (MissingObjectException | IncorrectObjectTypeException e) {
                    return "it indexes commit " + x.getKey().name() + ", which this store does not have";
                }
                ObjectId actual = commit.getParentCount() == 0 ? null : commit.getParent(0);
                if (!Objects.equals(x.getValue(), actual)) {
                    return "it logs another first parent for commit " + x.getKey().name();
                }
            }
        }
        return null;
    }
}
