package dev.palimpsest.internal.query;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.History;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.index.RefPin;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.RefStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The inbound direction, from the index: who cites a fact at a commit, and how each ref of a
 * fact's version stands now (current, revised, superseded or retracted). Stateless.
 */
public final class Dependents {
    private Dependents() {}

    /**
     * The fact versions live at {@code at} that cite {@code target}; with {@code all}, also the
     * earlier referrer versions in the ancestry of {@code at} that are no longer live.
     */
    public static List<InboundRef> inbound(GitRepo repo, PredicateIndex index, FactId target, ObjectId at,
            boolean all) {
        List<InboundRef> out = new ArrayList<>();
        for (String citer : index.citers(target)) {
            FactId r = FactId.of(citer);
            FactState now = index.state(r, at);
            ObjectId liveVersion = now != null && now.live() ? now.versionCommit() : null;
            if (liveVersion != null) {
                add(out, r, now, target, true);
            }
            if (all) {
                Set<ObjectId> done = new HashSet<>();
                for (FactState e : index.events(r)) {
                    if (e.live() && !e.versionCommit().equals(liveVersion) && done.add(e.versionCommit())
                            && (index.onFirstParentChain(e.changedAt(), at)
                                    || History.isAncestorOrSelf(repo, e.changedAt(), at))) {
                        add(out, r, e, target, false);
                    }
                }
            }
        }
        out.sort(Comparator.comparing((InboundRef i) -> !i.live()).thenComparing(i -> i.referrer().value())
                .thenComparing(i -> i.referrerVersion().hex()));
        return out;
    }

    private static void add(List<InboundRef> out, FactId referrer, FactState st, FactId target, boolean live) {
        for (RefPin p : st.refs()) {
            if (p.target().equals(target.value())) {
                ObjectId pin = p.commit() == null ? st.versionCommit() : p.commit();
                out.add(new InboundRef(referrer, CommitId.of(st.versionCommit().name()), RefRole.of(p.role()),
                        CommitId.of(pin.name()), p.blob() == null ? null : BlobId.of(p.blob().name()), live));
            }
        }
    }

    /**
     * The live fact at {@code at} that supersedes {@code target} (the smallest id when several do), or
     * null; asks only the facts that ever cited {@code target} with {@code supersedes}.
     */
    public static FactId supersededBy(PredicateIndex index, FactId target, ObjectId at) {
        String by = index.liveSuperseder(target.value(), at);
        return by == null ? null : FactId.of(by);
    }

    /**
     * How each ref of {@code citer}'s version at {@code at} (live, or last navigable) stands at
     * {@code at}: a target counts as superseded only by a fact other than {@code citer} (a superseder's
     * own ref to what it supersedes is current while the pinned version is).
     */
    public static List<RefStatus> stale(PredicateIndex index, FactId citer, FactState version, ObjectId at) {
        return statuses(index, citer, version, at, false);
    }

    /** The statuses of {@link #stale} that are not {@link RefStatus.Status#CURRENT}, in the same order. */
    public static List<RefStatus> staleOnly(PredicateIndex index, FactId citer, FactState version, ObjectId at) {
        return statuses(index, citer, version, at, true);
    }

    private static List<RefStatus> statuses(PredicateIndex index, FactId citer, FactState version, ObjectId at,
            boolean staleOnly) {
        List<RefStatus> out = staleOnly ? null : new ArrayList<>();
        for (RefPin p : version.refs()) {
            FactId target = FactId.of(p.target());
            ObjectId pinCommit = p.commit() == null ? version.versionCommit() : p.commit();
            ObjectId pinBlob = p.blob();
            if (pinBlob == null) {
                FactState atPin = index.state(target, pinCommit);
                pinBlob = atPin == null ? null : atPin.blob();
            }
            FactState now = index.state(target, at);
            RefStatus.Status status;
            ObjectId current;
            FactId by = null;
            if (now == null || !now.live()) {
                status = RefStatus.Status.RETRACTED;
                current = now == null ? null : now.changedAt();
            } else {
                current = now.versionCommit();
                by = supersededBy(index, target, at);
                if (by != null && !by.equals(citer)) {
                    status = RefStatus.Status.SUPERSEDED;
                } else if (pinBlob != null && !pinBlob.equals(now.blob())) {
                    by = null;
                    status = RefStatus.Status.REVISED;
                } else {
                    by = null;
                    status = RefStatus.Status.CURRENT;
                }
            }
            if (staleOnly && status == RefStatus.Status.CURRENT) {
                continue;
            }
            if (out == null) {
                out = new ArrayList<>();
            }
            out.add(new RefStatus(target, RefRole.of(p.role()), status, CommitId.of(pinCommit.name()),
                    current == null ? null : CommitId.of(current.name()), by));
        }
        return out == null ? List.of() : out;
    }
}
