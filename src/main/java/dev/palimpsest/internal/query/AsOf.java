package dev.palimpsest.internal.query;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Wall-clock "as of": the last commit of main's first-parent chain whose committer time is at or
 * before an instant. The chain's commits and times are kept in memory, oldest first, and extended
 * when main moved on top of them (rebuilt when it did not), so a question reads only the commits
 * written since the last one. The writer keeps commit times monotonic on main (a commit is never
 * dated before its parent), so the answer is the one commit that separates the chain at that time;
 * on a history whose times go back (pulled from a drifting clock, within the audit's tolerance) it
 * is still the newest commit dated at or before the instant. Thread-safe (synchronized).
 */
public final class AsOf {
    private final GitRepo repo;
    private ObjectId[] commits = new ObjectId[0];
    private long[] times = new long[0];
    private int size;

    public AsOf(GitRepo repo) {
        this.repo = repo;
    }

    /** The first commit of the chain and its time, or null when main has no commit. */
    public synchronized Instant firstTime() {
        sync();
        return size == 0 ? null : Instant.ofEpochSecond(times[0]);
    }

    /** The last first-parent commit of main dated at or before {@code t}, or null when none is. */
    public synchronized ObjectId commitAt(Instant t) {
        sync();
        long s = t.getEpochSecond();
        for (int i = size - 1; i >= 0; i--) {
            if (times[i] <= s) {
                return commits[i];
            }
        }
        return null;
    }

    private void sync() {
        ObjectId head = repo.head();
        if (head == null) {
            size = 0;
            return;
        }
        if (size > 0 && commits[size - 1].equals(head)) {
            return;
        }
        try (RevWalk walk = new RevWalk(repo.newReader())) {
            java.util.ArrayList<RevCommit> fresh = new java.util.ArrayList<>();
            RevCommit c = walk.parseCommit(head);
            ObjectId known = size == 0 ? null : commits[size - 1];
            while (c != null && !c.equals(known)) {
                fresh.add(c);
                if (c.getParentCount() == 0) {
                    c = null;
                } else {
                    c = c.getParent(0);
                    walk.parseHeaders(c);
                }
            }
            if (c == null) {
                size = 0; // main does not extend what was cached: start again from the genesis
            }
            int need = size + fresh.size();
            if (need > commits.length) {
                commits = Arrays.copyOf(commits, Math.max(need, commits.length * 2));
                times = Arrays.copyOf(times, commits.length);
            }
            for (int i = fresh.size() - 1; i >= 0; i--) {
                commits[size] = fresh.get(i).copy();
                times[size] = fresh.get(i).getCommitTime();
                size++;
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read main's history", e);
        }
    }
}
