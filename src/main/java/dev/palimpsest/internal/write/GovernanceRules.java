package dev.palimpsest.internal.write;

import dev.palimpsest.internal.rules.RoleRules;
import dev.palimpsest.internal.rules.RuleSink;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The gate's side of {@link RoleRules}: what the writing actor's key (its role at the parent) may
 * retract or supersede, reported to the gate. Not thread-safe (one per gate).
 */
final class GovernanceRules {
    private final ReferenceGate gate;
    private final Map<ObjectId, RoleRules.Writer> writers = new HashMap<>();
    private KeyRole actorRole;
    private ActorName roleOf;

    GovernanceRules(ReferenceGate gate) {
        this.gate = gate;
    }

    private KeyRole role(ActorName actor) {
        if (!actor.equals(roleOf)) {
            roleOf = actor;
            actorRole = RoleRules.role(gate.parent, actor.value());
        }
        return actorRole;
    }

    private RoleRules.Writer writer(ObjectId commit) {
        return writers.computeIfAbsent(commit.copy(), c -> RoleRules.writerOf(gate.repo, c));
    }

    /** Checks {@code actor}'s retraction of {@code version}; false (reported) when its key may not. */
    boolean retraction(ActorName actor, FactId id, FactVersion version) {
        KeyRole role = role(actor);
        if (role != KeyRole.AGENT) {
            return true;
        }
        RuleSink sink = (rule, msg) -> gate.violation(rule, "fact " + id, msg);
        return RoleRules.retraction(id, role, writer(ObjectId.fromString(version.commit().hex())),
                gate.index.liveSuperseder(id.value(), gate.parent.commit()), gate.config(), sink);
    }

    /** Checks {@code actor}'s change of the config from {@code before} to {@code after}; false (reported) when its key may not. */
    boolean agentsMay(ActorName actor, dev.palimpsest.internal.yaml.StoreConfig before,
            dev.palimpsest.internal.yaml.StoreConfig after) {
        return RoleRules.agentsMay(role(actor), before.agentsMay(), after.agentsMay(),
                (rule, msg) -> gate.violation(rule, dev.palimpsest.internal.layout.StorePaths.CONFIG, msg));
    }

    /** Checks the new pinned {@code supersedes} refs of {@code referrer} written by {@code actor}. */
    void supersessions(ActorName actor, FactId referrer, List<Ref> added) {
        KeyRole role = role(actor);
        if (role != KeyRole.AGENT) {
            return;
        }
        for (Ref r : added) {
            if (RefRole.SUPERSEDES.equals(r.role()) && r.commit() != null) {
                RuleSink sink = (rule, msg) -> gate.violation(rule, "ref " + referrer + " -> " + r.id(), msg);
                RoleRules.supersession(r.id(), role, writer(ObjectId.fromString(r.commit().hex())), gate.config(), sink);
            }
        }
    }
}
