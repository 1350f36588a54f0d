package dev.palimpsest.internal.rules;

import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Rule;
import java.util.Collection;

/**
 * The per-fact claim and supersession rules, run by the reference gate on a write and by the audit
 * on every new or revised fact version in history: a claim (kind {@code entity-claim}) states a
 * triple whose subject, predicate and object each normalise to a non-empty {@link EntityKey}, and
 * cites at least one source (ref role {@code source}); a fact never supersedes itself. (That a fact
 * is not already superseded by a live fact needs the history at the parent: the gate's alone.)
 * Stateless; arguments must not be null.
 */
public final class ClaimRules {
    private ClaimRules() {}

    /** The claim rules of {@code f}, whose refs are {@code f.refs()}; true when none broke. */
    public static boolean claim(Fact f, RuleSink sink) {
        return claim(f, f.refs().stream().map(Ref::role).toList(), sink);
    }

    /**
     * The claim rules of {@code f}, whose refs have the roles {@code roles} (the gate passes the
     * roles asked for, so a ref rejected for another reason is not also a missing source); true
     * when none broke. Facts of other kinds pass.
     */
    public static boolean claim(Fact f, Collection<RefRole> roles, RuleSink sink) {
        if (!Kind.ENTITY_CLAIM.equals(f.kind())) {
            return true;
        }
        boolean ok = true;
        Grounding g = f.grounding();
        if (!g.hasTriple()) {
            sink.report(Rule.CLAIM_TRIPLE, "a claim states one triple: subject, predicate, object");
            ok = false;
        } else {
            for (String[] part : new String[][] {{"subject", g.subject()}, {"predicate", g.predicate()},
                    {"object", g.object()}}) {
                if (EntityKey.of(part[1]).isEmpty()) {
                    sink.report(Rule.CLAIM_TRIPLE, "the claim's " + part[0] + " '" + part[1]
                            + "' holds no word character (its normalised key is empty)");
                    ok = false;
                }
            }
        }
        if (roles.stream().noneMatch(RefRole.SOURCE::equals)) {
            sink.report(Rule.CLAIM_SOURCE, "a claim cites at least one source (ref role 'source')");
            ok = false;
        }
        return ok;
    }

    /** False (reported) when fact {@code id}'s ref of role {@code role} to {@code target} supersedes itself. */
    public static boolean notSelfSuperseding(FactId id, FactId target, RefRole role, RuleSink sink) {
        if (RefRole.SUPERSEDES.equals(role) && target.equals(id)) {
            sink.report(Rule.SELF_SUPERSESSION, "fact " + id + " cannot supersede itself: a correction is a new "
                    + "fact with its own id, so the old one survives to be pointed at");
            return false;
        }
        return true;
    }
}
