package dev.palimpsest.internal.write;

import dev.palimpsest.internal.git.History;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.query.Versions;
import dev.palimpsest.internal.rules.RefRules;
import dev.palimpsest.internal.rules.RuleSink;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.Rule;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The gate's ref rules: resolves the refs a write asks for into pinned refs, each to its target's
 * last navigable version at the commit it names (an ancestor of the parent) or at the parent, or to
 * a fact of the same transaction; every rule a ref breaks is reported to the gate. Not thread-safe
 * (one per gate).
 */
final class RefResolver {
    private final ReferenceGate gate;

    RefResolver(ReferenceGate gate) {
        this.gate = gate;
    }

    private FactId currentReferrer;
    /** The targets of the refs the last {@link #resolve(FactId, List, List)} resolved whose pinned version is sealed. */
    private final Set<FactId> sealedTargets = new HashSet<>();

    /** The targets, among the refs the last call to {@link #resolve(FactId, List, List)} resolved, whose version is sealed. */
    Set<FactId> sealedTargets() {
        return Set.copyOf(sealedTargets);
    }

    /**
     * The new refs {@code specs} of {@code referrer} resolve to (each pinned to its target's last
     * navigable version at the commit it names, or at the parent), skipping those that break a rule
     * (each reported to the gate); {@code existing} are the refs the fact already carries.
     */
    List<Ref> resolve(FactId referrer, List<RefSpec> specs, List<Ref> existing) {
        currentReferrer = referrer;
        sealedTargets.clear();
        List<Ref> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Ref e : existing) {
            seen.add(RefRules.key(e.id(), e.role()));
        }
        for (RefSpec s : specs) {
            String subject = "ref " + referrer + " -> " + s.target();
            RuleSink sink = (rule, msg) -> gate.violation(rule, subject, msg);
            if (!RefRules.identity(referrer, s.target(), s.role(), seen, sink)) {
                continue;
            }
            Ref ref = resolve(subject, s, sink);
            if (ref != null) {
                out.add(ref);
            }
        }
        return out;
    }

    private Ref resolve(String subject, RefSpec s, RuleSink sink) {
        java.util.Optional<String> bad = s.quote() == null ? java.util.Optional.empty()
                : dev.palimpsest.model.Text.findProblem("the quote", s.quote());
        if (bad.isPresent()) {
            gate.violation(Rule.INVALID_TEXT, subject, bad.get());
            return null;
        }
        Fact same = gate.pending.get(s.target());
        if (s.at() == null && same != null) {
            if (gate.toSeal.contains(s.target())) {
                sealedTargets.add(s.target());
            }
            return RefRules.subsumes(s.role(), s.target(), same.kind(), sink)
                    && RefRules.quote(s.quote(), s.target(), same.body(), sink)
                    ? new Ref(s.target(), s.role(), null, null, s.quote(), sealQuote(s, gate.toSeal.contains(s.target())))
                    : null;
        }
        ObjectId at = gate.parent.commit();
        if (s.at() != null) {
            at = ObjectId.fromString(s.at().hex());
            if (!gate.isCommit(at)) {
                gate.violation(Rule.PIN_UNKNOWN, subject, "commit " + s.at().hex() + " does not exist in this store");
                return null;
            }
            if (!History.isAncestorOrSelf(gate.repo, at, gate.parent.commit())) {
                gate.violation(Rule.PIN_NOT_ANCESTOR, subject, "commit " + s.at().hex()
                        + " is not an ancestor of the commit the write lands on (" + gate.parent.commit().name() + ")");
                return null;
            }
        }
        Optional<FactVersion> version;
        boolean sealedTarget = false;
        boolean checked = false;
        Snapshot snap = at.equals(gate.parent.commit()) ? gate.parent : Snapshot.of(gate.repo, at);
        try {
            version = (snap == gate.parent ? gate.versions : new Versions(gate.index, snap)).existsAt(s.target());
            if (version.isEmpty()) {
                gate.violation(Rule.REF_TARGET_MISSING, subject, s.target() + " does not exist at " + at.name());
                return null;
            }
            if (RefRole.SUBSUMES.equals(s.role()) || s.quote() != null) {
                if (!RefRules.quoteLength(s.quote(), sink)) {
                    return null;
                }
                Fact target = decodeBlob(snap, version.get());
                if (target != null && target.contentUnavailable() && s.quote() != null) {
                    gate.violation(Rule.FORGOTTEN, subject, s.target() + "'s sealed content is unavailable (no data key)");
                    return null;
                }
                sealedTarget = target != null && target.seal() != null;
                checked = true;
                if (target == null || !RefRules.subsumes(s.role(), s.target(), target.kind(), sink)
                        || !RefRules.quote(s.quote(), s.target(), target.body(), sink)) {
                    return null;
                }
            }
            if (!checked) {
                sealedTarget = dev.palimpsest.internal.rules.SealRules.sealedVersion(snap, version.get());
            }
        } finally {
            if (snap != gate.parent) {
                snap.close();
            }
        }
        if (sealedTarget) {
            sealedTargets.add(s.target());
        }
        return new Ref(s.target(), s.role(), version.get().commit(), version.get().blob(), s.quote(),
                sealQuote(s, sealedTarget));
    }

    /** The quote of {@code s} sealed with its target's key when the target is sealed, else null. */
    private String sealQuote(RefSpec s, boolean sealedTarget) {
        if (s.quote() == null || !sealedTarget) {
            return null;
        }
        return dev.palimpsest.internal.yaml.Sealing.sealQuote(gate.repo.vault().keyOrCreate(s.target(), gate.createdKeys), s.target(),
                currentReferrer, s.quote());
    }

    private Fact decodeBlob(Snapshot snap, FactVersion v) {
        try {
            return FactCodec.decodeFact(snap.read(ObjectId.fromString(v.blob().hex())), v.id().value(), gate.repo.vault());
        } catch (FormatException e) {
            gate.violation(Rule.CORRUPT_TARGET, "fact " + v.id(), e.getMessage());
            return null;
        }
    }
}
