package dev.palimpsest.api;

import dev.palimpsest.internal.derive.Derivation;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Dependent;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.ProvenanceNode;
import java.util.List;
import java.util.Objects;

/**
 * What derives from what: the dependents of a fact (the derivation set unlearning needs) and the
 * provenance tree of a fact down to its sources, at any commit, from the predicate index.
 *
 * <p>What does not exist follows {@link Store}'s rule: a commit the repository does not hold, or a
 * fact never written in its ancestry, is a {@link NotFoundException}. Thread-safe.
 */
public final class Derivations {
    private final Store store;
    private final Derivation derivation;
    private final dev.palimpsest.internal.write.Writer writer;

    Derivations(Store store, GitRepo repo, PredicateIndex index, dev.palimpsest.internal.write.Writer writer) {
        this.store = store;
        this.writer = writer;
        this.derivation = new Derivation(repo, index);
        writer.addListener((commit, parent, actor, changes, facts) -> derivation.committed(changes, facts));
    }

    /**
     * {@link #dependents(FactId, CommitId, boolean)} at the tip of main.
     *
     * @throws NotFoundException when {@code id} was never written on main
     */
    public List<Dependent> dependents(FactId id, boolean transitive) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        return dependents(id, store.head(), transitive);
    }

    /**
     * Every fact that cites {@code id} (any version written in the ancestry of {@code at}, including
     * versions retracted since), with {@code transitive} also everything that reaches it through
     * such citations; each with its depth, the first hop of a shortest path and whether it is live
     * at {@code at}. Sorted by depth, then id.
     *
     * @throws NotFoundException when {@code at} is no commit of the store, or {@code id} was never
     *     written in its ancestry
     */
    public List<Dependent> dependents(FactId id, CommitId at, boolean transitive) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        store.factExistsAt(id, Objects.requireNonNull(at, "at"));
        return derivation.dependents(id, store.commit(at), transitive);
    }

    /**
     * {@link #explain(FactId, CommitId)} at the tip of main.
     *
     * @throws NotFoundException when {@code id} has no navigable version on main
     */
    public ProvenanceNode explain(FactId id) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        return explain(id, store.head());
    }

    /**
     * The provenance tree of {@code id}'s version navigable at {@code at}: each ref leads to the
     * version it pinned, down to facts without refs; every node with its status at {@code at},
     * actor and run.
     *
     * @throws NotFoundException when {@code at} is no commit of the store, or {@code id} has no
     *     navigable version there
     */
    public ProvenanceNode explain(FactId id, CommitId at) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        store.factExistsAt(id, Objects.requireNonNull(at, "at"));
        ProvenanceNode n = derivation.explain(id, store.commit(at));
        if (n == null) {
            throw new NotFoundException("fact " + id + " has no navigable version at " + at.hex());
        }
        return markForgotten(n, store.commit(at));
    }

    /** {@code n} with every node not live at {@code at} whose fact is tombstoned there shown forgotten, with its tombstone's commit. */
    private ProvenanceNode markForgotten(ProvenanceNode n, org.eclipse.jgit.lib.ObjectId at) {
        List<ProvenanceNode> children = new java.util.ArrayList<>();
        for (ProvenanceNode c : n.children()) {
            children.add(markForgotten(c, at));
        }
        org.eclipse.jgit.lib.ObjectId tomb = n.status() == ProvenanceNode.Status.RETRACTED
                ? writer.forgetting().tombstoneCommit(n.id(), at) : null;
        return n.with(children, tomb == null ? null : CommitId.of(tomb.name()));
    }
}
