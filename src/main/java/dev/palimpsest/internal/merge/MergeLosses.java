package dev.palimpsest.internal.merge;

import dev.palimpsest.model.FactId;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.revwalk.filter.RevFilter;

/**
 * The concurrent revisions that lost a merge in the ancestry of a commit, read from the
 * {@code Palimpsest-Lost} trailers of its merge commits (which the audit holds to the recomputed
 * merge). Stateless.
 */
public final class MergeLosses {
    private static final String LOST = "Palimpsest-Lost: ";

    private MergeLosses() {}

    /** Every fact's latest loss in the ancestry of {@code at}, newest merge first; one per fact. */
    public static List<ConvergentMerge.Lost> at(Repository repo, ObjectId at) {
        List<ConvergentMerge.Lost> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        try (RevWalk walk = new RevWalk(repo)) {
            walk.setRevFilter(RevFilter.ONLY_MERGES);
            walk.markStart(walk.parseCommit(at));
            for (RevCommit c : walk) {
                for (String line : MergeMessage.trailerLines(c.getFullMessage())) {
                    if (!line.startsWith(LOST)) {
                        continue;
                    }
                    String[] parts = line.substring(LOST.length()).split(" ");
                    if (parts.length == 3 && ObjectId.isId(parts[1]) && ObjectId.isId(parts[2]) && seen.add(parts[0])) {
                        try {
                            out.add(new ConvergentMerge.Lost(FactId.of(parts[0]), ObjectId.fromString(parts[1]),
                                    ObjectId.fromString(parts[2])));
                        } catch (IllegalArgumentException e) {
                            // not a fact id: the audit reports such a merge as merge-mismatch
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot walk the merges of " + at.name() + ": " + e.getMessage(), e);
        }
        return out;
    }
}
