package dev.palimpsest.internal.rules;

import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Rule;

/**
 * Succession in valid time, run by the reference gate on a new ref and by the audit on every new
 * ref in history: a ref of role {@code invalidates} or {@code invalidated_by} joins two claims
 * (kind {@code entity-claim}) with equal subject and predicate keys; the referrer states a
 * {@code valid_from}; an {@code invalidates} target's validity starts before the referrer's (an open
 * start is before every instant), an {@code invalidated_by} target's starts after it. Otherwise
 * {@code invalid-succession}. A revision that changes a claim's validity is held to the same order
 * ({@link #revised}): the succession refs it carries, and those to it from claims live where it lands. Stateless; arguments must not be null except {@code target} (its
 * pinned version did not decode: reported).
 */
public final class SuccessionRules {
    private SuccessionRules() {}

    /** True when {@code role} is one of the two succession roles. */
    public static boolean isSuccession(RefRole role) {
        return RefRole.INVALIDATES.equals(role) || RefRole.INVALIDATED_BY.equals(role);
    }

    /** Checks the succession ref {@code r} of {@code referrer} to {@code target}'s pinned version; true when it holds. */
    public static boolean check(Fact referrer, Ref r, Fact target, RuleSink sink) {
        if (!isSuccession(r.role())) {
            return true;
        }
        String what = r.role() + " " + r.id() + ": ";
        if (!claim(referrer) || referrer.validity().start().isEmpty()) {
            sink.report(Rule.INVALID_SUCCESSION, what + "only a claim with a valid_from succeeds another in valid time");
            return false;
        }
        if (target == null || !claim(target)) {
            sink.report(Rule.INVALID_SUCCESSION, what + "the target is not a claim (subject, predicate, object)");
            return false;
        }
        if (!EntityKey.of(referrer.grounding().subject()).equals(EntityKey.of(target.grounding().subject()))
                || !EntityKey.of(referrer.grounding().predicate()).equals(EntityKey.of(target.grounding().predicate()))) {
            sink.report(Rule.INVALID_SUCCESSION, what + "the target is about another subject or predicate ('"
                    + target.grounding().subject() + "' / '" + target.grounding().predicate() + "')");
            return false;
        }
        java.time.Instant mine = referrer.validity().from();
        java.time.Instant theirs = target.validity().from();
        boolean ordered = RefRole.INVALIDATES.equals(r.role()) ? theirs.isBefore(mine) : mine.isBefore(theirs);
        if (!ordered) {
            sink.report(Rule.INVALID_SUCCESSION, what + "the target's validity starts "
                    + target.validity().start().map(Object::toString).orElse("open") + ", which is not "
                    + (RefRole.INVALIDATES.equals(r.role()) ? "before" : "after") + " this claim's " + mine);
            return false;
        }
        return true;
    }

    /**
     * The succession rule on a revision from {@code before} to {@code now} that changes the validity
     * (nothing to check otherwise): each succession ref {@code now} carries over unchanged is checked
     * again against its pinned target ({@code pinned}; null when it does not decode), and each
     * succession ref to the fact from the versions in {@code citers} (the claims live at the commit
     * the revision lands on that cite it so) is checked against {@code now}. True when none broke.
     */
    public static boolean revised(Fact before, Fact now, java.util.function.Function<Ref, Fact> pinned,
            java.util.List<Fact> citers, RuleSink sink) {
        if (before.validity().equals(now.validity())) {
            return true;
        }
        boolean ok = true;
        for (Ref r : now.refs()) {
            if (isSuccession(r.role()) && before.refs().contains(r)) {
                ok &= check(now, r, pinned.apply(r), (rule, msg) -> sink.report(rule, msg + " (the revision changes"
                        + " this claim's validity)"));
            }
        }
        for (Fact citer : citers) {
            for (Ref r : citer.refs()) {
                if (isSuccession(r.role()) && r.id().equals(now.id())) {
                    ok &= check(citer, r, now, (rule, msg) -> sink.report(rule, "the live claim " + citer.id() + ", "
                            + msg + " (the revision changes the target's validity)"));
                }
            }
        }
        return ok;
    }

    private static boolean claim(Fact f) {
        return Kind.ENTITY_CLAIM.equals(f.kind()) && f.grounding().hasTriple();
    }
}
