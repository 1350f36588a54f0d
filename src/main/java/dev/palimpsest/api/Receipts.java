package dev.palimpsest.api;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.query.FactCache;
import dev.palimpsest.internal.receipts.BatchFile;
import dev.palimpsest.internal.receipts.Cascade;
import dev.palimpsest.internal.receipts.Cleanup;
import dev.palimpsest.internal.receipts.EntailSync;
import dev.palimpsest.internal.receipts.Entailer;
import dev.palimpsest.internal.receipts.ReviewQueue;
import dev.palimpsest.internal.yaml.Ontology;
import dev.palimpsest.internal.receipts.ReceiptGraph;
import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.ReceiptReport;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.ReviewItem;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    private Entailer entailer;
    private Ontology entailerOntology;
    private Map<String, Entailer.Triple> entailerBase;

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

    /** The review queue at {@code at}: touched-but-alive artifacts and facts with stale refs, unacknowledged. */
    public List<ReviewItem> review(CommitId at) throws NotFoundException {
        return ReviewQueue.items(index, cleanup(at));
    }

    /**
     * Records that {@code item}, at its current version, was reviewed: a {@code review-ack} fact
     * citing it (role {@code acknowledges}, pinned to that version), one signed commit.
     *
     * @throws NotFoundException the item is not live at main's tip
     */
    public CommitResult acknowledge(ActorName actor, FactId item, String note)
            throws NotFoundException, RejectedException, ConflictException {
        CommitId head = store.head();
        var version = store.factExistsAt(item, head);
        if (version.isEmpty() || !store.factLiveAtCommit(item, head)) {
            throw new NotFoundException(item + " is not live at " + head.hex());
        }
        Transaction tx = store.begin(actor);
        tx.assertFact(ReviewQueue.ackId(item, version.get().commit()), Kind.of(ReviewQueue.ACK_KIND),
                note == null || note.isBlank() ? "reviewed " + item : note, null,
                List.of(new RefSpec(item, null, ReviewQueue.ACK_ROLE, null)));
        return tx.commit();
    }

    /**
     * Brings the entailed edges up to date with the live assertions and the ontology at main's tip,
     * writing only the changes as one commit (none when nothing changed). The closure is kept in
     * memory and updated incrementally between runs of this store instance; an incremental run
     * compares receipts only in the region the changed assertions reach and for entailed edges
     * missing from the store (the first run in a process compares every entailed edge).
     */
    public synchronized EntailResult entail(ActorName actor) throws NotFoundException, RejectedException,
            ConflictException {
        Cleanup c = cleanup(store.head());
        Map<String, Entailer.Triple> now = EntailSync.assertions(c.graph());
        Ontology onto = c.graph().config().ontology();
        boolean incremental = entailer != null && onto.equals(entailerOntology);
        if (!incremental) {
            entailer = new Entailer(onto);
            entailerOntology = onto;
            entailerBase = new HashMap<>();
        }
        for (String gone : entailerBase.keySet()) {
            if (!now.containsKey(gone)) {
                entailer.removeAssertion(gone);
            }
        }
        now.forEach((id, t) -> {
            if (!t.equals(entailerBase.get(id))) {
                entailer.removeAssertion(id);
                entailer.addAssertion(id, t);
            }
        });
        entailerBase = new HashMap<>(now);
        var region = entailer.apply();
        EntailSync.Changes ch = EntailSync.diff(c.graph(), entailer, incremental ? region : null);
        int edges = entailer.entailed().size();
        if (ch.isEmpty()) {
            return new EntailResult(null, 0, 0, 0, edges, incremental);
        }
        Transaction tx = store.begin(actor);
        EntailSync.addTo(tx, ch);
        return new EntailResult(tx.commit(), ch.added().size(), ch.revised().size(), ch.retracted().size(), edges,
                incremental);
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
