package dev.palimpsest.internal.rules;

import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.yaml.CanonicalFacts;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Rule;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Sensitivity follows provenance, as the reference gate applies it on a write and the audit replays
 * it on history (rule {@code plaintext-citer}): a fact version kept in the clear (no seal) that
 * cites, quotes or, when asserted as a merge, edge or summary, rests on a sealed version must say so
 * ({@code plaintext: true}); file records are never sealed and are exempt. Whether a version is
 * sealed is read from its file in git (its {@code sealed} envelope), never from a vault, so the gate
 * and the audit of any replica decide alike. Stateless.
 */
public final class SealRules {
    private SealRules() {}

    /** True when the fact file {@code bytes} of {@code id} is sealed; an undecodable file is not. */
    public static boolean sealed(byte[] bytes, FactId id) {
        try {
            return bytes != null && CanonicalFacts.fact(bytes, id.value()).seal() != null;
        } catch (FormatException | RuntimeException e) {
            return false;
        }
    }

    /** True when version {@code v} is sealed, its blob read through {@code snap} (an unreadable one is not). */
    public static boolean sealedVersion(Snapshot snap, FactVersion v) {
        try {
            return sealed(snap.read(ObjectId.fromString(v.blob().hex())), v.id());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** True when {@code f} is exempt: sealed, marked {@code plaintext: true}, or a produced file's record. */
    public static boolean exempt(Fact f) {
        return f.seal() != null || f.plaintext() || "file".equals(f.kind().value());
    }

    /**
     * Checks that {@code f}, a version written in the clear, newly names no sealed version: {@code sealed}
     * holds the ids among its new refs, quotes and (for an assertion of a derived artifact) receipt
     * members whose version is sealed. {@code revision} says whether {@code f} revises an earlier
     * version (whose plaintext versions could then never be forgotten). True when nothing was broken.
     */
    public static boolean plaintextCiter(Fact f, Set<FactId> sealed, boolean revision, RuleSink sink) {
        if (exempt(f) || sealed.isEmpty()) {
            return true;
        }
        sink.report(Rule.PLAINTEXT_CITER, (revision ? "is plaintext and would cite sealed " : "is plaintext, not marked"
                + " plaintext: true, and cites or rests on sealed ") + new TreeSet<>(sealed) + (revision
                ? "; its plaintext versions cannot be forgotten, so assert a new fact (sealed by default) or one"
                        + " written with plaintext explicitly"
                : "; a fact citing sealed content is sealed unless its writer chose plaintext"));
        return false;
    }
}
