package dev.palimpsest.api;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.receipts.BatchFile;
import dev.palimpsest.internal.receipts.Cascade;
import dev.palimpsest.internal.receipts.Cleanup;
import dev.palimpsest.internal.receipts.FactCache;
import dev.palimpsest.internal.receipts.ReceiptGraph;
import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.ReceiptReport;
import java.util.List;
import java.util.TreeMap;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Receipts of a store's derived artifacts: ingest of layered batches, liveness per layer at any
 * commit, and withdrawals (retract-source, revoke-relation) whose cascade is computed by set
 * arithmetic over the receipts and lands as one signed commit.
 *
 * <p>Thread-safe; the receipts of the last commit asked about are kept in memory. Arguments must
 * not be null unless documented.
 */
public final class Receipts {
    private final Store store;
    private final GitRepo repo;
    private final PredicateIndex index;
    private final FactCache cache = new FactCache();
    private volatile Cleanup last;

    Receipts(Store store, GitRepo repo, PredicateIndex index) {
        this.store = store;
        this.repo = repo;
        this.index = index;
    }

    /**
     * Lands a batch (YAML, see README "Ingest files") as one commit: config changes (policy,
     * ontology), sources, assertions and artifacts. Receipts over 8 bundles keep the smallest 8,
     * or with {@code strict} reject the batch.
     *
     * @throws RejectedException the batch is malformed or breaks a gate rule; every problem is listed
     */
    public IngestResult ingest(ActorName actor, byte[] yaml, boolean strict) throws RejectedException, ConflictException {
        BatchFile batch = BatchFile.parse(yaml, strict);
        if (!batch.problems.isEmpty()) {
            throw new RejectedException(batch.problems);
        }
        Transaction tx = store.begin(actor);
        boolean configured = batch.policy != null || !batch.ontology.isEmpty();
        if (configured) {
            tx.add(new Operation.Configure(batch.policy, batch.ontology));
        }
        TreeMap<String, Integer> kinds = new TreeMap<>();
        for (BatchFile.Item it : batch.items) {
            tx.assertGrounded(it.id(), it.kind(), it.body(), it.refs(), it.grounding());
            kinds.merge(it.kind().value(), 1, Integer::sum);
        }
        if (tx.size() == 0) {
            throw new RejectedException("empty-batch", "batch", "the batch holds no sources, assertions, artifacts or config");
        }
        return new IngestResult(tx.commit(), kinds, configured, batch.truncated);
    }

    /** Alive, dead, touched and pending counts per layer at {@code at}. */
    public ReceiptReport report(CommitId at) throws NotFoundException {
        return cleanup(at).report();
    }

    /** The plan of retracting documents {@code docs} (and every assertion of them) at main's tip. */
    public CleanupPlan planRetractSource(List<FactId> docs, String reason) throws NotFoundException {
        Cleanup c = cleanup(store.head());
        int[] roots = c.sourceRoots(docs);
        for (FactId d : docs) {
            int n = c.graph().find(d);
            if (n < 0 || !store.factLiveAtCommit(d, store.head())) {
                throw new NotFoundException("document " + d + " is not live at " + store.head().hex());
            }
        }
        return c.plan(Cleanup.RETRACT_SOURCE, docs.stream().map(FactId::value).toList(), reason, roots);
    }

    /** The plan of revoking {@code predicate}: retracting every live assertion that uses it. */
    public CleanupPlan planRevokeRelation(String predicate, String reason) throws NotFoundException {
        Cleanup c = cleanup(store.head());
        int[] roots = c.predicateRoots(predicate);
        if (roots.length == 0) {
            throw new NotFoundException("no live assertion uses predicate '" + predicate + "' at " + store.head().hex());
        }
        return c.plan(Cleanup.REVOKE_RELATION, List.of(predicate), reason, roots);
    }

    /**
     * Lands a plan as one signed commit by {@code actor}: the roots, then the cascade layer by layer,
     * then the sentence summaries revised.
     *
     * @throws ConflictException main moved since the plan was made (plan again)
     */
    public CommitResult apply(ActorName actor, CleanupPlan plan) throws RejectedException, ConflictException {
        if (!plan.at().equals(store.head())) {
            throw new ConflictException("main moved since the plan was made at " + plan.at().hex() + "; plan again");
        }
        if (plan.isEmpty()) {
            throw new RejectedException("empty-plan", plan.operation(), "the plan changes nothing");
        }
        Transaction tx = store.begin(actor);
        try {
            Cascade.addTo(tx, plan, cleanup(plan.at()));
        } catch (NotFoundException e) {
            throw new PalimpsestInternalException("main's tip vanished: " + e.getMessage(), e);
        }
        return tx.commit();
    }

    Cleanup cleanup(CommitId at) throws NotFoundException {
        ObjectId c = ObjectId.fromString(at.hex());
        Cleanup l = last;
        if (l != null && l.graph().commit().equals(c)) {
            return l;
        }
        store.resolve(at.hex());
        Cleanup fresh = new Cleanup(ReceiptGraph.load(repo, index, c, cache));
        last = fresh;
        return fresh;
    }
}
