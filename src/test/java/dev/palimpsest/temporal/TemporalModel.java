package dev.palimpsest.temporal;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An in-memory model of a linear Palimpsest timeline, written from the temporal contract alone:
 * per commit, each fact's liveness, its last navigable version (the commit that wrote it, its blob,
 * its refs) and the commit of its last change. It answers what {@code factLiveAtCommit},
 * {@code factExistsAt}, {@code inbound} and {@code stale} must answer. Commits are numbered by
 * position on the timeline (0 = genesis), so "at or before" is simply {@code <=}. Not thread-safe.
 */
final class TemporalModel {
    /** One version of a fact; its blob is learned from the store once the commit landed. */
    static final class Version {
        final FactId id;
        final int commit;
        final Kind kind;
        final String body;
        final List<MRef> refs;
        BlobId blob;

        Version(FactId id, int commit, Kind kind, String body, List<MRef> refs) {
            this.id = id;
            this.commit = commit;
            this.kind = kind;
            this.body = body;
            this.refs = List.copyOf(refs);
        }

        boolean hasSameTransactionRef() {
            return refs.stream().anyMatch(MRef::sameTx);
        }

        @Override
        public String toString() {
            return id + "@" + commit;
        }
    }

    /** A stored ref: the target version it pins, and whether it was written with its target. */
    record MRef(FactId target, String role, Version pinned, boolean sameTx) {}

    /** A requested ref: target as read at commit {@code at} (null: the parent). */
    record Spec(FactId target, String role, Integer at) {}

    /** A fact's state at a commit: live or retracted, its last navigable version, its last change. */
    record State(boolean live, Version version, int changedAt) {}

    final List<CommitId> commits = new ArrayList<>();
    private final List<Map<FactId, State>> states = new ArrayList<>();
    private final Map<FactId, List<Version>> versions = new TreeMap<>();

    TemporalModel(CommitId genesis) {
        commits.add(genesis);
        states.add(Map.of());
    }

    int head() {
        return commits.size() - 1;
    }

    int indexOf(CommitId c) {
        return commits.indexOf(c);
    }

    State state(FactId id, int at) {
        return states.get(at).get(id);
    }

    boolean live(FactId id, int at) {
        State s = state(id, at);
        return s != null && s.live();
    }

    boolean exists(FactId id, int at) {
        return state(id, at) != null;
    }

    Optional<FactVersion> existsAt(FactId id, int at) {
        State s = state(id, at);
        return s == null ? Optional.empty() : Optional.of(version(s.version()));
    }

    FactVersion version(Version v) {
        return new FactVersion(v.id, commits.get(v.commit), v.blob);
    }

    /** Every fact id the model has seen written. */
    List<FactId> ids() {
        return new ArrayList<>(versions.keySet());
    }

    /**
     * inbound(target, at, all): one entry per matching ref of each referrer version live at
     * {@code at}; with {@code all}, also of each other version written at or before {@code at}.
     */
    List<InboundRef> inbound(FactId target, int at, boolean all) {
        List<InboundRef> out = new ArrayList<>();
        for (Map.Entry<FactId, List<Version>> e : versions.entrySet()) {
            State st = state(e.getKey(), at);
            Version liveVersion = st != null && st.live() ? st.version() : null;
            for (Version v : e.getValue()) {
                boolean isLive = v == liveVersion;
                if (v.commit > at || !(isLive || all)) {
                    continue;
                }
                for (MRef r : v.refs) {
                    if (r.target().equals(target)) {
                        out.add(new InboundRef(v.id, commits.get(v.commit), RefRole.of(r.role()), commits.get(r.pinned().commit),
                                r.sameTx() ? null : r.pinned().blob, isLive));
                    }
                }
            }
        }
        return out;
    }

    /** stale(id, at): each ref of the fact's version at {@code at}, worst status first by precedence. */
    List<RefStatus> stale(FactId id, int at) {
        List<RefStatus> out = new ArrayList<>();
        for (MRef r : state(id, at).version().refs) {
            State now = state(r.target(), at);
            CommitId pinned = commits.get(r.pinned().commit);
            if (now == null || !now.live()) {
                out.add(new RefStatus(r.target(), RefRole.of(r.role()), RefStatus.Status.RETRACTED, pinned,
                        now == null ? null : commits.get(now.changedAt()), null));
                continue;
            }
            CommitId current = commits.get(now.version().commit);
            FactId by = supersededBy(r.target(), at);
            if (id.equals(by)) {
                by = null; // a superseder's own ref to what it supersedes
            }
            RefStatus.Status status = by != null ? RefStatus.Status.SUPERSEDED
                    : r.pinned().blob.equals(now.version().blob) ? RefStatus.Status.CURRENT : RefStatus.Status.REVISED;
            out.add(new RefStatus(r.target(), RefRole.of(r.role()), status, pinned, current, by));
        }
        return out;
    }

    /** The smallest id live at {@code at} whose live version has a {@code supersedes} ref to {@code target}. */
    private FactId supersededBy(FactId target, int at) {
        for (FactId f : versions.keySet()) {
            State st = state(f, at);
            if (st != null && st.live()
                    && st.version().refs.stream().anyMatch(r -> r.target().equals(target) && "supersedes".equals(r.role()))) {
                return f;
            }
        }
        return null;
    }

    Tx begin() {
        return new Tx(head());
    }

    /** The operations of one transaction, applied to a copy of the parent's state. */
    final class Tx {
        final int parent;
        final int commit;
        private final Map<FactId, State> next;
        final Map<FactId, Version> pending = new LinkedHashMap<>();
        final Map<FactId, Version> written = new LinkedHashMap<>();
        final List<FactId> retracted = new ArrayList<>();

        private Tx(int parent) {
            this.parent = parent;
            this.commit = parent + 1;
            this.next = new HashMap<>(states.get(parent));
        }

        Version assertFact(FactId id, Kind kind, String body, List<Spec> refs) {
            Version v = new Version(id, commit, kind, body, resolve(refs));
            pending.put(id, v);
            written.put(id, v);
            next.put(id, new State(true, v, commit));
            return v;
        }

        Version revise(FactId id, String body, List<Spec> addRefs) {
            Version old = state(id, parent).version();
            List<MRef> refs = new ArrayList<>();
            for (MRef r : old.refs) {
                // a carried same-transaction ref is pinned explicitly to what it meant
                refs.add(r.sameTx() ? new MRef(r.target(), r.role(), r.pinned(), false) : r);
            }
            refs.addAll(resolve(addRefs));
            Version v = new Version(id, commit, old.kind, body, refs);
            written.put(id, v);
            next.put(id, new State(true, v, commit));
            return v;
        }

        void retract(FactId id) {
            retracted.add(id);
            next.put(id, new State(false, state(id, parent).version(), commit));
        }

        private List<MRef> resolve(List<Spec> specs) {
            List<MRef> out = new ArrayList<>();
            for (Spec s : specs) {
                if (s.at() == null && pending.containsKey(s.target())) {
                    out.add(new MRef(s.target(), s.role(), pending.get(s.target()), true));
                } else {
                    int at = s.at() == null ? parent : s.at();
                    out.add(new MRef(s.target(), s.role(), state(s.target(), at).version(), false));
                }
            }
            return out;
        }

        /** Records the landed commit; the caller then fills in the written versions' blobs. */
        void landed(CommitId c) {
            commits.add(c);
            states.add(Map.copyOf(next));
            for (Version v : written.values()) {
                versions.computeIfAbsent(v.id, k -> new ArrayList<>()).add(v);
            }
        }
    }
}
