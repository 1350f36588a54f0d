package dev.palimpsest.internal.index;

import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.OverlayReader;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevSort;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Answers "which version of fact X is navigable at commit C, and is it live" from per-fact events
 * over the first-parent chains of the commit graph ({@link CommitGraph}), in O(log versions) per
 * chain crossed (one on linear history), never by walking history. "Before" means ancestry: a
 * commit's state is its first parent's plus its own diff, and a merge's diff carries what it took
 * from its other parents. Also keeps, per target, the facts that ever cited it (for inbound).
 *
 * <p>A cache: derivable from git alone. Commits are indexed on demand (any commit asked about, and
 * its unindexed ancestry); the persisted log is read on open, its bad tail cut, and appended to
 * by writers under the writer lock. Thread-safe (synchronized).
 */
public final class PredicateIndex {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PredicateIndex.class);
    private final GitRepo repo;
    private final IndexLog log;
    private final CommitGraph graph = new CommitGraph();
    private final Map<String, FactTimeline> facts = new HashMap<>();
    private final Map<String, Set<String>> citedBy = new HashMap<>();
    /** The part of {@link #citedBy} by succession refs ({@code invalidates}, {@code invalidated_by}): few, so valid time stays cheap for much-cited facts. */
    private final Map<String, Set<String>> succeededBy = new HashMap<>();
    /** The part of {@link #citedBy} by {@code supersedes} refs: few, so asking whether a much-cited fact is superseded stays cheap. */
    private final Map<String, Set<String>> supersededBy = new HashMap<>();
    /** The facts with more than one event on some chain (revised, retracted or forgotten somewhere). */
    private final Set<String> changed = new HashSet<>();
    /** The facts cited by some version but without an event of their own (only a tampered history has any). */
    private final Set<String> citedUnwritten = new HashSet<>();
    private final List<IndexLog.Entry> unpersisted = new ArrayList<>();
    /** The end of the last record the log holds for this process: 0 when there is no log, -1 when it must be rewritten. */
    private long logEnd;
    private int rebuilt;
    /** False when something other than a regular file sits at the log's path: nothing is persisted. */
    private boolean persistable = true;
    private final CommitEvents events;

    private PredicateIndex(GitRepo repo) {
        this.repo = repo;
        this.log = new IndexLog(repo.gitDir());
        this.events = new CommitEvents(repo, this::state);
    }

    /**
     * Loads the persisted index and catches it up with main. A log that is not this store's or
     * does not check out against git (bad header or an older format, another genesis, a logged
     * commit missing or with another first parent) is discarded and rebuilt from git, and a log
     * path that is not a regular file is left alone (the index then lives in memory only); either
     * is said in one log line (slf4j).
     */
    public static PredicateIndex open(GitRepo repo) {
        PredicateIndex idx = new PredicateIndex(repo);
        if (!idx.log.usable()) {
            idx.persistable = false;
            LOG.warn(idx.log.file() + " is not a regular file; the predicate index is kept in memory only");
        } else {
            String problem;
            try {
                problem = idx.load();
            } catch (IOException | RuntimeException e) {
                problem = "unreadable: " + e.getMessage();
            }
            if (problem != null) {
                idx = new PredicateIndex(repo);
                idx.logEnd = -1;
                idx.rebuilt++;
                notice("discarded the predicate index " + idx.log.file() + " (" + problem + "); rebuilding it from git");
            }
        }
        ObjectId head = repo.head();
        if (head != null) {
            idx.catchUp(head);
        }
        return idx;
    }

    /** Applies the persisted log; returns why it cannot be used, or null. */
    private String load() throws IOException {
        IndexLog.Read r = log.read(0);
        if (r.headerBad()) {
            return "its header is not a version-2 index header";
        }
        if (!Files.exists(log.file())) {
            return null;
        }
        boolean gap = false;
        for (IndexLog.Entry e : r.entries()) {
            if (!apply(e)) {
                gap = true;
                break;
            }
        }
        // the first record applied has no first parent: only a root commit can join an empty graph
        if (!order.isEmpty() && !order.get(0).commit().equals(r.genesis())) {
            return "its first record is not the genesis commit its header names";
        }
        String wrong = LogCheck.againstGit(repo, r.genesis(), order, graph.tips());
        if (wrong != null) {
            return wrong;
        }
        logEnd = gap ? -1 : r.end();
        return null;
    }

    private static void notice(String message) {
        LOG.info(message);
    }

    /** True when this process indexed commits the persisted log does not hold yet. */
    public synchronized boolean hasUnpersisted() {
        return persistable && (!unpersisted.isEmpty() || logEnd < 0);
    }

    /** How many times a persisted index was found corrupt and discarded (for audits). */
    public synchronized int discardedLogs() {
        return rebuilt;
    }

    /** The number of first-parent chains the indexed commits form (one on linear history). */
    synchronized int chains() {
        return graph.tips().size();
    }

    /** The number of indexed commits. */
    public synchronized int commitCount() {
        return graph.size();
    }

    /** The fact's state at {@code commit}: the last event on its ancestry, or null if never written. */
    public synchronized FactState state(FactId id, ObjectId commit) {
        catchUp(commit);
        FactTimeline t = facts.get(id.value());
        if (t == null) {
            return null;
        }
        CommitGraph.Node n = graph.node(commit);
        int chain = n.chain();
        int pos = n.pos();
        while (chain >= 0) {
            FactEvent e = t.lastAtOrBefore(chain, pos);
            if (e != null) {
                return new FactState(e);
            }
            pos = graph.forkPos(chain);
            chain = graph.parentChain(chain);
        }
        return null;
    }

    /**
     * The fact's last navigable version at {@code commit} as the layout defines it: its state when
     * live, or when its retraction record is in the commit's tree; else null (a file removed
     * without a record, as only a tampered history has, leaves no navigable version).
     */
    public FactState existing(FactId id, ObjectId commit) {
        FactState st = state(id, commit);
        return st == null || st.navigable() ? st : null;
    }

    /**
     * The fact's newest live version in the first-parent ancestry of {@code commit} (its state
     * there when live; else the version before its retraction or removal), or null when none.
     */
    public synchronized FactState lastLive(FactId id, ObjectId commit) {
        catchUp(commit);
        FactTimeline t = facts.get(id.value());
        if (t == null) {
            return null;
        }
        CommitGraph.Node n = graph.node(commit);
        int chain = n.chain();
        int pos = n.pos();
        while (chain >= 0) {
            FactState[] last = {null};
            t.eachAtOrBefore(chain, pos, e -> {
                FactState st = new FactState(e);
                if (st.live() && st.blob() != null) {
                    last[0] = st;
                }
            });
            if (last[0] != null) {
                return last[0];
            }
            pos = graph.forkPos(chain);
            chain = graph.parentChain(chain);
        }
        return null;
    }

    /**
     * The ids of the facts live at {@code commit} that start with {@code prefix}, in id order, at
     * most {@code limit}: one pass over the ids ever written, checking liveness only for an id that
     * would be among the first {@code limit}.
     */
    public synchronized List<String> liveIdsWithPrefix(String prefix, ObjectId commit, int limit) {
        catchUp(commit);
        java.util.PriorityQueue<String> first = new java.util.PriorityQueue<>(java.util.Comparator.reverseOrder());
        if (limit > 0) {
            for (String id : facts.keySet()) {
                if (!id.startsWith(prefix) || first.size() == limit && id.compareTo(first.peek()) >= 0) {
                    continue;
                }
                FactState st = state(FactId.of(id), commit);
                if (st != null && st.live()) {
                    first.add(id);
                    if (first.size() > limit) {
                        first.poll();
                    }
                }
            }
        }
        List<String> out = new ArrayList<>(first);
        out.sort(null);
        return out;
    }

    /**
     * Every event of the fact in the ancestry of {@code commit} (the first-parent chains crossed
     * from it, as {@link #state} reads them), the newest chain segment first; empty if never written.
     */
    public synchronized List<FactState> eventsAt(FactId id, ObjectId commit) {
        catchUp(commit);
        List<FactState> out = new ArrayList<>();
        FactTimeline t = facts.get(id.value());
        if (t == null) {
            return out;
        }
        CommitGraph.Node n = graph.node(commit);
        int chain = n.chain();
        int pos = n.pos();
        while (chain >= 0) {
            t.eachAtOrBefore(chain, pos, e -> out.add(new FactState(e)));
            pos = graph.forkPos(chain);
            chain = graph.parentChain(chain);
        }
        return out;
    }

    /**
     * Calls {@code each} with every fact some version of which, written in the ancestry of
     * {@code commit}, cites {@code target} (for derivation sets: retracted versions count), and
     * whether that fact is live at {@code commit}. One lock and no copies: for graph traversals.
     */
    public synchronized void citersAt(String target, ObjectId commit, java.util.function.BiConsumer<String, Boolean> each) {
        catchUp(commit);
        Set<String> cs = citedBy.get(target);
        if (cs == null) {
            return;
        }
        CommitGraph.Node n = graph.node(commit);
        for (String citer : cs) {
            FactTimeline t = facts.get(citer);
            if (t == null) {
                continue;
            }
            boolean found = false;
            FactEvent last = null;
            int chain = n.chain();
            int pos = n.pos();
            while (chain >= 0 && (!found || last == null)) {
                if (last == null) {
                    last = t.lastAtOrBefore(chain, pos);
                }
                if (!found) {
                    found = t.cites(chain, pos, target);
                }
                pos = graph.forkPos(chain);
                chain = graph.parentChain(chain);
            }
            if (found) {
                each.accept(citer, last != null && last.live());
            }
        }
    }

    /**
     * Calls {@code each} with the fact id and state of every event of the indexed commits from
     * position {@code from} of the order they were indexed in; returns the position to resume from.
     * Lets derived indexes (e.g. receipt members) catch up incrementally.
     */
    public synchronized int eventsSince(int from, java.util.function.BiConsumer<String, FactState> each) {
        for (int i = from; i < order.size(); i++) {
            for (Map.Entry<String, FactEvent> en : order.get(i).events().entrySet()) {
                each.accept(en.getKey(), new FactState(en.getValue()));
            }
        }
        return order.size();
    }

    /**
     * The fact live at {@code at} whose version there supersedes {@code target} (the smallest id
     * when several do), or null: what the {@code already-superseded} rule asks at the commit a
     * supersession lands on, at write time and in the audit.
     */
    public synchronized String liveSuperseder(String target, ObjectId at) {
        catchUp(at);
        String best = null;
        for (String citer : supersededBy.getOrDefault(target, Set.of())) {
            FactState st = state(dev.palimpsest.model.FactId.of(citer), at);
            if (st == null || !st.live() || best != null && citer.compareTo(best) >= 0) {
                continue;
            }
            for (RefPin r : st.refs()) {
                if (r.target().equals(target) && dev.palimpsest.model.RefRole.SUPERSEDES.value().equals(r.role())) {
                    best = citer;
                    break;
                }
            }
        }
        return best;
    }

    /**
     * The states at {@code at} of the facts live there whose version cites {@code target} with a
     * succession ref ({@code invalidates}, {@code invalidated_by}), in id order: what a revision of
     * {@code target}'s validity is checked against.
     */
    public synchronized List<FactState> liveSuccessionCiters(String target, ObjectId at) {
        catchUp(at);
        List<String> ids = new ArrayList<>(succeededBy.getOrDefault(target, Set.of()));
        java.util.Collections.sort(ids);
        List<FactState> out = new ArrayList<>();
        for (String citer : ids) {
            FactState st = state(FactId.of(citer), at);
            if (st == null || !st.live()) {
                continue;
            }
            for (RefPin r : st.refs()) {
                if (r.target().equals(target) && SUCCESSION_ROLES.contains(r.role())) {
                    out.add(st);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * The validity of the fact live at {@code at} with succession applied, as {@code {from, until}}
     * in epoch seconds (open bounds {@link Long#MIN_VALUE} and {@link Long#MAX_VALUE}), or null when
     * the fact is not live there (never written, retracted, removed). The end is the earliest of the
     * version's own {@code valid_until}, the start of every fact live at {@code at} whose version
     * there {@code invalidates} it, and the start of every fact live at {@code at} that its own
     * version says it is {@code invalidated_by}. A successor's start not after the fact's own start
     * closes nothing (the gate and the audit refuse such refs; a forged one is ignored here).
     */
    public synchronized long[] effectiveValidity(String id, ObjectId at) {
        catchUp(at);
        FactState st = state(FactId.of(id), at);
        if (st == null || !st.live()) {
            return null;
        }
        long from = st.validFrom();
        long until = st.validUntil();
        Set<String> citers = succeededBy.get(id);
        if (citers != null) {
            for (String citer : citers) {
                FactState c = state(FactId.of(citer), at);
                if (c == null || !c.live() || c.validFrom() <= from || c.validFrom() >= until) {
                    continue;
                }
                for (RefPin r : c.refs()) {
                    if (r.target().equals(id) && INVALIDATES.equals(r.role())) {
                        until = c.validFrom();
                        break;
                    }
                }
            }
        }
        for (RefPin r : st.refs()) {
            if (INVALIDATED_BY.equals(r.role())) {
                FactState later = state(FactId.of(r.target()), at);
                if (later != null && later.live() && later.validFrom() > from && later.validFrom() < until) {
                    until = later.validFrom();
                }
            }
        }
        return new long[] {from, until};
    }

    /**
     * True when the validity {@code v} ({@code {from, until}} in epoch seconds, as {@link
     * #effectiveValidity} gives it; null: not live) holds at {@code t}: {@code from <= t < until}, an
     * open bound always holding. The one test of valid time behind every valid-at question
     * (FactValidAt, current, contradictions, search and brief).
     */
    public static boolean holdsAt(long[] v, long t) {
        return v != null && v[0] <= t && t < v[1];
    }

    private static final String INVALIDATES = dev.palimpsest.model.RefRole.INVALIDATES.value();
    private static final String INVALIDATED_BY = dev.palimpsest.model.RefRole.INVALIDATED_BY.value();
    private static final Set<String> SUCCESSION_ROLES = Set.of(INVALIDATES, INVALIDATED_BY);

    /** The store's genesis commit (the first indexed commit), or null while nothing is indexed. */
    public synchronized ObjectId genesis() {
        return order.isEmpty() ? null : order.get(0).commit();
    }

    /**
     * Every fact, on any chain, whose refs may be stale somewhere: the citers of the facts with more
     * than one event (revised, retracted or forgotten), of the superseded ones and of those never
     * written. A superset of the facts with a ref that is not current at any indexed commit; each
     * must still be asked at its commit.
     */
    public synchronized Set<String> mayCiteStale() {
        Set<String> out = new HashSet<>();
        for (Set<String> targets : List.of(changed, supersededBy.keySet(), citedUnwritten)) {
            for (String target : targets) {
                out.addAll(citedBy.getOrDefault(target, Set.of()));
            }
        }
        return out;
    }

    /** Ids of every fact whose some indexed version cited {@code target}. */
    public synchronized Set<String> citers(FactId target) {
        return Set.copyOf(citedBy.getOrDefault(target.value(), Set.of()));
    }

    /** Every indexed event of a fact (all versions and removals), in chain order. */
    public synchronized List<FactState> events(FactId id) {
        List<FactState> out = new ArrayList<>();
        FactTimeline t = facts.get(id.value());
        if (t != null) {
            t.forEach(e -> out.add(new FactState(e)));
        }
        return out;
    }

    /** True when {@code commit} is indexed (so it is a commit of the repository). */
    public synchronized boolean indexed(ObjectId commit) {
        return graph.contains(commit);
    }

    /** Indexes {@code target} and its unindexed ancestry, parents first. */
    public synchronized void catchUp(ObjectId target) {
        catchUp(target, KnownChanges.NONE);
    }

    /**
     * As {@link #catchUp(ObjectId)}, taking each single-parent commit's changes and decoded facts
     * from {@code known} where it has them instead of diffing trees and decoding files.
     */
    public synchronized void catchUp(ObjectId target, KnownChanges known) {
        if (graph.contains(target)) {
            return;
        }
        try (ObjectReader reader = withCommits(known, repo.newReader()); RevWalk walk = new RevWalk(reader)) {
            RevCommit direct = walk.parseCommit(target);
            boolean parentsKnown = true;
            for (RevCommit p : direct.getParents()) {
                parentsKnown &= graph.contains(p);
            }
            if (parentsKnown) {
                // the common case (a commit on top of indexed history): no walk needed
                IndexLog.Entry e = events.ofKnown(reader, direct, known);
                if (e == null) {
                    e = events.of(reader, walk, direct);
                }
                apply(e);
                unpersisted.add(e);
                return;
            }
            walk.sort(RevSort.TOPO);
            walk.sort(RevSort.REVERSE, true);
            walk.markStart(walk.parseCommit(target));
            stopAtIndexed(walk);
            for (RevCommit c : walk) {
                if (!graph.contains(c)) {
                    IndexLog.Entry e = events.ofKnown(reader, c, known);
                    if (e == null) {
                        e = events.of(reader, walk, c);
                    }
                    apply(e);
                    unpersisted.add(e);
                }
            }
        } catch (org.eclipse.jgit.errors.MissingObjectException e) {
            throw new IllegalArgumentException("no commit " + target.name() + " in this store");
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot index history up to " + target.name(), e);
        }
    }

    /** {@code base}, serving the commits {@code known} holds from memory. */
    private static ObjectReader withCommits(KnownChanges known, ObjectReader base) {
        return new OverlayReader(id -> {
            byte[] raw = known.commit(id);
            return raw == null ? null : new ObjectLoader.SmallObject(Constants.OBJ_COMMIT, raw);
        }, base);
    }

    /**
     * Indexes {@code commit}, written by this process on top of the indexed {@code parent} with
     * exactly the path changes {@code changes} (path to new blob, null for a removal), without
     * diffing its tree against its parent's: the writer already knows what it changed. Gives the
     * same events as {@link #catchUp}; falls back to it when {@code parent} is not indexed.
     * {@code decoded} holds, by path, facts whose files are exactly their canonical encoding, so
     * their files need not be read back; other written files are read and decoded.
     */
    public synchronized void indexOwnCommit(ObjectId commit, ObjectId parent, Map<String, ObjectId> changes,
            Map<String, Fact> decoded) {
        if (graph.contains(commit)) {
            return;
        }
        if (parent == null || !graph.contains(parent)) {
            catchUp(commit);
            return;
        }
        IndexLog.Entry e = events.ofOwnCommit(commit, parent, changes, decoded);
        apply(e);
        unpersisted.add(e);
    }

    /** Stops the walk at the tips of the indexed chains: every indexed commit is one of their ancestors. */
    @dev.palimpsest.model.DoNotMutate("speed only: the walk skips indexed commits anyway; the tips only stop it early")
    private void stopAtIndexed(RevWalk walk) throws IOException {
        for (ObjectId indexed : graph.tips()) {
            walk.markUninteresting(walk.parseCommit(indexed));
        }
    }

    /**
     * Appends what this process indexed and the file lacks; call under the writer lock. Records
     * another process appended meanwhile are read first; a bad tail is cut.
     */
    public synchronized void persist() {
        if (!persistable || order.isEmpty()) {
            return;
        }
        try {
            if (logEnd <= 0) {
                log.create(order.get(0).commit());
                logEnd = IndexLog.HEADER;
                unpersisted.clear();
                List<IndexLog.Entry> all = new ArrayList<>();
                replayAll(all);
                logEnd = log.append(all);
                return;
            }
            if (unpersisted.isEmpty() && log.size() == logEnd) {
                return;
            }
            IndexLog.Read r = log.size() == logEnd ? new IndexLog.Read(List.of(), logEnd, false, null) : log.read(logEnd);
            Set<ObjectId> inFile = new HashSet<>();
            for (IndexLog.Entry e : r.entries()) {
                apply(e);
                inFile.add(e.commit());
            }
            if (r.end() != log.size()) {
                log.truncate(r.end());
            }
            List<IndexLog.Entry> todo = new ArrayList<>();
            for (IndexLog.Entry e : unpersisted) {
                if (!inFile.contains(e.commit())) {
                    todo.add(e);
                }
            }
            logEnd = todo.isEmpty() ? r.end() : log.append(todo);
            unpersisted.clear();
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot write the predicate index " + log.file(), e);
        }
    }

    private final List<IndexLog.Entry> order = new ArrayList<>();

    private void replayAll(List<IndexLog.Entry> out) {
        out.addAll(order);
    }

    private boolean apply(IndexLog.Entry e) {
        if (graph.contains(e.commit())) {
            return true;
        }
        if (e.firstParent() != null && !graph.contains(e.firstParent())) {
            return false;
        }
        CommitGraph.Node n = graph.add(e.commit(), e.firstParent());
        for (Map.Entry<String, FactEvent> en : e.events().entrySet()) {
            FactTimeline t = facts.computeIfAbsent(en.getKey(), k -> new FactTimeline());
            t.add(n.chain(), n.pos(), en.getValue());
            if (t.total() > 1) {
                changed.add(en.getKey());
            } else {
                citedUnwritten.remove(en.getKey());
            }
            for (RefPin r : en.getValue().refs()) {
                citedBy.computeIfAbsent(r.target(), k -> new HashSet<>()).add(en.getKey());
                if (!facts.containsKey(r.target())) {
                    citedUnwritten.add(r.target());
                }
                if (SUCCESSION_ROLES.contains(r.role())) {
                    succeededBy.computeIfAbsent(r.target(), k -> new HashSet<>()).add(en.getKey());
                }
                if (dev.palimpsest.model.RefRole.SUPERSEDES.value().equals(r.role())) {
                    supersededBy.computeIfAbsent(r.target(), k -> new HashSet<>()).add(en.getKey());
                }
            }
        }
        order.add(e);
        return true;
    }

    /**
     * True when {@code ancestor} is on the first-parent chain of {@code commit} (both indexed); a
     * false answer says nothing about ancestry through merges.
     */
    public synchronized boolean onFirstParentChain(ObjectId ancestor, ObjectId commit) {
        CommitGraph.Node a = graph.node(ancestor);
        CommitGraph.Node n = graph.node(commit);
        if (a == null || n == null) {
            return false;
        }
        int chain = n.chain();
        int pos = n.pos();
        while (chain >= 0) {
            if (chain == a.chain()) {
                return a.pos() <= pos;
            }
            pos = graph.forkPos(chain);
            chain = graph.parentChain(chain);
        }
        return false;
    }
}
