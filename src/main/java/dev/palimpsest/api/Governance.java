package dev.palimpsest.api;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.StoreConfig;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AgentPermission;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What agent keys may do beyond the default ({@code agents_may} in {@code palimpsest.yaml}; see
 * {@link AgentPermission}): read at any commit, and changed by a human key, never an agent key (rule
 * {@code agents-may-human-only}, checked by the gate and the audit alike). The change is one signed
 * commit of the acting key, so history shows who granted what and when; the gate and the audit read
 * the grant at each commit's parent. Thread-safe; arguments must not be null ({@link NullPointerException}).
 */
public final class Governance {
    private final Store store;
    private final GitRepo repo;

    Governance(Store store, GitRepo repo) {
        this.store = store;
        this.repo = repo;
    }

    /** What {@code agents_may} grants agent keys at the tip of main. */
    public Set<AgentPermission> agentsMay() {
        return store.atTip(this::agentsMay);
    }

    /**
     * What {@code agents_may} grants agent keys at {@code at}.
     *
     * @throws NotFoundException {@code at} is no commit of the store
     */
    public Set<AgentPermission> agentsMay(CommitId at) throws NotFoundException {
        Objects.requireNonNull(at, "at");
        try (Snapshot s = Snapshot.of(repo, store.commit(at))) {
            StoreConfig c = FactCodec.decodeConfig(s.readPath(StorePaths.CONFIG), StorePaths.CONFIG);
            Set<AgentPermission> out = EnumSet.noneOf(AgentPermission.class);
            c.agentsMay().forEach(p -> out.add(AgentPermission.parse(p)));
            return Set.copyOf(out);
        } catch (FormatException | IllegalArgumentException e) {
            throw new PalimpsestInternalException(StorePaths.CONFIG + " at " + at.hex() + " does not decode: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Makes {@code grants} exactly what agent keys may do, in one commit signed by {@code actor}.
     * Empty when they already hold at main's tip (nothing is written).
     *
     * @throws RejectedException {@code actor}'s key is an agent key ({@code agents-may-human-only}),
     *     or any other reason the gate refuses a write
     * @throws ConflictException main moved while writing
     */
    public Optional<CommitResult> setAgentsMay(ActorName actor, Set<AgentPermission> grants) throws RejectedException,
            ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(grants, "grants");
        Transaction tx = store.begin(actor);
        if (store.atTip(this::agentsMay).equals(Set.copyOf(grants))) {
            return Optional.empty();
        }
        tx.add(Operation.Configure.agentsMay(grants));
        return Optional.of(tx.commit());
    }
}
