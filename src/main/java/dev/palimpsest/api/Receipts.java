package dev.palimpsest.api;

import dev.palimpsest.model.Rule;
import dev.palimpsest.internal.receipts.Withdrawals;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.ExistsAt;
import java.util.Objects;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.EntailResult;
import dev.palimpsest.model.IngestResult;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.query.FactCache;
import dev.palimpsest.internal.receipts.BatchFile;
import dev.palimpsest.internal.receipts.Cascade;
import dev.palimpsest.internal.receipts.Cleanup;
import dev.palimpsest.internal.receipts.EntailSync;
import dev.palimpsest.internal.receipts.Entailment;
import dev.palimpsest.internal.receipts.ReviewQueue;
import dev.palimpsest.internal.merge.MergeLosses;
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
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.RederiveReport;
import dev.palimpsest.model.TrustChange;
import dev.palimpsest.model.TrustPolicy;
import java.util.List;
import java.util.Map;
import java.util.ArrayList;
import dev.palimpsest.internal.receipts.SentenceFile;
import dev.palimpsest.model.ArtifactReceipts;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Sentence;
import dev.palimpsest.model.Violation;
import java.util.TreeMap;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Works with the receipts of a store's derived artifacts: ingest of layered batches, liveness per layer at any
 * commit, withdrawals (retract-source, revoke-relation, retract by id) whose cascade is computed by
 * set arithmetic over the receipts and lands as one signed commit, the review queue, and
 * entailment.
 *
 * <p>What does not exist follows {@link Store}'s rule: a commit the repository does not hold is a
 * {@link NotFoundException}; the ids a withdrawal, an acknowledgement or a batch names that are not
 * live at main's tip are violations of a {@link RejectedException}, as for any write.
 *
 * <p>Thread-safe; the receipts of the last commit asked about, the review queues of the last few
 * commits asked about (a commit's never changes) and the entailer's state are kept in memory, and the entailer's state is also saved beside the repository for the next process.
 * Arguments must not be null ({@link NullPointerException}).
 */
public final class Receipts {
    private final Store store;
    private final GitRepo repo;
    private final PredicateIndex index;
    private final FactCache cache;
    /**
     * The review queues last asked for, by commit (a commit's never changes): at most
     * {@value #CACHED_REVIEWS} commits and {@value #CACHED_REVIEW_ITEMS} items in all.
     */
    private final Map<CommitId, List<ReviewItem>> reviews = java.util.Collections.synchronizedMap(
            new java.util.LinkedHashMap<>(8, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<CommitId, List<ReviewItem>> eldest) {
                    return size() > CACHED_REVIEWS || size() > 1
                            && values().stream().mapToInt(List::size).sum() > CACHED_REVIEW_ITEMS;
                }
            });
    private static final int CACHED_REVIEWS = 4;
    private static final int CACHED_REVIEW_ITEMS = 100_000;
    private volatile Cleanup last;
    private final Entailment entailment;

    Receipts(Store store, GitRepo repo, PredicateIndex index) {
        this.store = store;
        this.repo = repo;
        this.index = index;
        this.cache = new FactCache(repo.vault());
        this.entailment = new Entailment(repo, index, cache);
    }

    /**
     * Lands a batch (YAML or JSON, see README "Ingest files" and docs/loading.md) as one commit: config
     * changes (policy, ontology, multi-valued predicates), sources, assertions, claims (facts of kind
     * {@code entity-claim}, as {@link Claims#claim} writes them; one naming {@code supersedes} corrects
     * that claim as {@link Claims#supersede} does) and artifacts. Receipts over 8 bundles keep the
     * smallest 8, or with {@code strict} reject the batch.
     *
     * @throws RejectedException the batch is malformed or breaks a gate rule (a claim citing a source
     *     that is neither in the batch nor live at main's tip, a bad quote, ...); every problem is
     *     listed and nothing is written
     */
    public IngestResult ingest(ActorName actor, byte[] yaml, boolean strict) throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(yaml, "yaml");
        BatchFile batch = BatchFile.parse(yaml, strict);
        if (!batch.problems.isEmpty()) {
            throw new RejectedException(batch.problems);
        }
        Transaction tx = store.begin(actor);
        boolean configured = batch.policy != null || !batch.ontology.isEmpty() || !batch.multiValued.isEmpty();
        if (configured) {
            tx.add(new Operation.Configure(batch.policy, batch.ontology, batch.multiValued));
        }
        TreeMap<String, Integer> kinds = new TreeMap<>();
        for (BatchFile.Item it : batch.items) {
            tx.assertFact(it.toFactSpec());
            kinds.merge(it.kind().value(), 1, Integer::sum);
        }
        for (BatchFile.ClaimItem c : batch.claims) {
            FactSpec f = store.claims().withSuccessions(c.spec().toFactSpec(), c.spec());
            if (c.supersedes() == null) {
                tx.assertFact(f);
            } else {
                tx.supersede(c.supersedes(), f);
            }
            kinds.merge(Kind.ENTITY_CLAIM.value(), 1, Integer::sum);
        }
        if (tx.size() == 0) {
            throw new RejectedException(Rule.EMPTY_BATCH, "batch",
                    "the batch holds no sources, assertions, claims, artifacts or config");
        }
        return new IngestResult(tx.commit(), kinds, configured, batch.truncated);
    }

    /**
     * The receipt whose bundles name these members, each {@code ID} (pinned by the gate at the write:
     * the member's version at the commit the write lands on) or {@code ID@REV} (as read at revision
     * REV, any revision git understands: its last version at or before that commit), as
     * {@code --ref} names a ref; for {@code Transaction.assertFact} (in a {@code FactSpec}'s grounding)
     * or {@code Transaction.revise}. {@code argument} is what violations name as their subject (the
     * caller's option or argument).
     *
     * @throws RejectedException every problem at once: a malformed id or an empty bundle, a member named
     *     twice in a bundle with different revisions, a bundle given twice or more than 8 bundles
     *     ({@code invalid-argument}); a revision that names no commit ({@code pin-unknown})
     */
    public Receipt receipt(String argument, List<List<String>> bundles) throws RejectedException {
        Objects.requireNonNull(argument, "argument");
        Objects.requireNonNull(bundles, "bundles");
        List<Violation> problems = new ArrayList<>();
        Receipt r = receipt(argument, bundles, problems);
        if (!problems.isEmpty()) {
            throw new RejectedException(problems);
        }
        return r;
    }

    /**
     * The sentences of a sentence-receipts file (YAML or JSON): a list of {@code {text, receipt}} as an
     * ingest batch's summary {@code sentences} (optionally under a top-level {@code sentences} key), or
     * a mapping from each sentence to its bundles, in file order; members as for
     * {@link #receipt(String, List)}. {@code argument} is what violations name as their subject.
     *
     * @throws RejectedException the file is malformed, names no sentence or a bad member; every problem
     *     is listed
     */
    public List<Sentence> sentences(String argument, byte[] file) throws RejectedException {
        Objects.requireNonNull(argument, "argument");
        Objects.requireNonNull(file, "file");
        SentenceFile parsed = SentenceFile.parse(file, argument);
        List<Violation> problems = new ArrayList<>(parsed.problems);
        List<Sentence> out = new ArrayList<>();
        for (SentenceFile.Entry e : parsed.entries) {
            Receipt r = receipt(argument, e.bundles(), problems);
            if (r != null) {
                try {
                    out.add(new Sentence(e.text(), r));
                } catch (IllegalArgumentException bad) {
                    problems.add(new Violation(Rule.INVALID_ARGUMENT, argument, bad.getMessage()));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new RejectedException(problems);
        }
        return out;
    }

    private Receipt receipt(String argument, List<List<String>> bundles, List<Violation> problems) {
        int before = problems.size();
        if (bundles.isEmpty()) {
            problems.add(new Violation(Rule.INVALID_ARGUMENT, argument, "a receipt needs at least one bundle"));
            return null;
        }
        List<List<Pin>> pinned = new ArrayList<>();
        for (List<String> bundle : bundles) {
            List<Pin> pins = new ArrayList<>();
            if (bundle.isEmpty()) {
                problems.add(new Violation(Rule.INVALID_ARGUMENT, argument, "a receipt bundle must not be empty"));
            }
            for (String member : bundle) {
                Pin p = member(argument, member, problems);
                if (p != null) {
                    pins.add(p);
                }
            }
            pinned.add(pins);
        }
        if (problems.size() > before) {
            return null;
        }
        try {
            return new Receipt(pinned);
        } catch (IllegalArgumentException e) {
            problems.add(new Violation(Rule.INVALID_ARGUMENT, argument, e.getMessage()));
            return null;
        }
    }

    /** {@code ID} or {@code ID@REV} as a member to pin; null (with a problem) when it is malformed or REV names no commit. */
    private Pin member(String argument, String text, List<Violation> problems) {
        int at = text.indexOf('@');
        FactId id;
        try {
            id = FactId.of(at < 0 ? text.strip() : text.substring(0, at).strip());
        } catch (IllegalArgumentException e) {
            problems.add(new Violation(Rule.INVALID_ARGUMENT, argument, "'" + text + "': " + e.getMessage()));
            return null;
        }
        if (at < 0) {
            return Pin.of(id);
        }
        String revision = text.substring(at + 1).strip();
        try {
            return Pin.asOf(id, store.resolve(revision));
        } catch (NotFoundException | IllegalArgumentException e) {
            problems.add(new Violation(Rule.PIN_UNKNOWN, argument + " -> " + id, "'" + revision
                    + "' names no commit of this store"));
            return null;
        }
    }

    /**
     * The receipts of fact {@code id} at the tip of main; see {@link #receiptsOf(FactId, CommitId)}.
     *
     * @throws NotFoundException the fact was never written on main
     */
    public ArtifactReceipts receiptsOf(FactId id) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        return receiptsOf(id, store.head());
    }

    /**
     * The receipts of fact {@code id} as of {@code at}, with what is alive there (see
     * {@link ArtifactReceipts}): the fact's version live at {@code at}, or its last version when it is
     * retracted there ({@code live} false). A fact without receipts has none (its {@code alive} is
     * whether it is live).
     *
     * @throws NotFoundException {@code at} is no commit of the store, or the fact was never written in
     *     its ancestry
     */
    public ArtifactReceipts receiptsOf(FactId id, CommitId at) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(at, "at");
        FactRead read = store.read(id, at);
        Fact fact = read instanceof FactRead.Found f ? f.fact() : ((FactRead.Retracted) read).lastFact();
        boolean live = read instanceof FactRead.Found;
        Cleanup c = cleanup(at);
        ReceiptGraph g = c.graph();
        dev.palimpsest.internal.receipts.Liveness l = c.baseline();
        int self = g.find(id);
        boolean alive = live && (self < 0 || g.isLive(self) && l.alive(self));
        Grounding gr = fact.grounding();
        List<List<ArtifactReceipts.Member>> receipt = gr.receipt() == null ? List.of() : members(gr.receipt(), g, l);
        List<ArtifactReceipts.SentenceReceipt> sentences = new ArrayList<>();
        for (int i = 0; i < gr.sentences().size(); i++) {
            Sentence s = gr.sentences().get(i);
            boolean sentenceAlive = live && self >= 0 && !l.sentenceDead(self, i);
            sentences.add(new ArtifactReceipts.SentenceReceipt(s.text(), sentenceAlive, members(s.receipt(), g, l)));
        }
        return new ArtifactReceipts(id, fact.kind(), at, live, alive, gr.flat(), receipt, sentences);
    }

    private static List<List<ArtifactReceipts.Member>> members(Receipt r, ReceiptGraph g,
            dev.palimpsest.internal.receipts.Liveness l) {
        List<List<ArtifactReceipts.Member>> out = new ArrayList<>();
        for (List<Pin> bundle : r.bundles()) {
            List<ArtifactReceipts.Member> ms = new ArrayList<>();
            for (Pin p : bundle) {
                int n = g.find(p.id());
                ms.add(new ArtifactReceipts.Member(p, n >= 0 && g.isLive(n) && l.alive(n)));
            }
            out.add(ms);
        }
        return out;
    }

    /** Alive, dead, touched and pending counts per layer at the tip of main. */
    public ReceiptReport report() {
        return store.atTip(this::report);
    }

    /**
     * Alive, dead, touched and pending counts per layer at {@code at}.
     *
     * @throws NotFoundException when {@code at} is no commit of the store
     */
    public ReceiptReport report(CommitId at) throws NotFoundException {
        return cleanup(Objects.requireNonNull(at, "at")).report();
    }

    /**
     * The plan of retracting documents {@code docs} (and every assertion of them) at main's tip.
     *
     * @throws RejectedException no document is given, or a document is not live at main's tip
     *     ({@code not-found}: never written; {@code not-live}: retracted); every such document is listed
     */
    public CleanupPlan planRetractSource(List<FactId> docs, String reason) throws RejectedException {
        Objects.requireNonNull(docs, "docs");
        Objects.requireNonNull(reason, "reason");
        return Withdrawals.retractSource(cleanupAt(store.head()), docs, reason);
    }

    /**
     * The plan of revoking {@code predicate}: retracting every live assertion that uses it.
     *
     * @throws RejectedException when no live assertion uses the predicate at main's tip
     */
    public CleanupPlan planRevokeRelation(String predicate, String reason) throws RejectedException {
        Objects.requireNonNull(predicate, "predicate");
        Objects.requireNonNull(reason, "reason");
        return Withdrawals.revokeRelation(cleanupAt(store.head()), predicate, reason);
    }

    /**
     * The plan of retracting facts {@code ids} with {@code reason} at main's tip (operation
     * {@code retract}, roots the ids in the order given): the cascade is what their retraction kills
     * by receipts — artifacts left without a live bundle, sentence summaries that lose sentences —
     * and the artifacts touched but still alive. When main's tip holds no artifact nothing can rest
     * on a fact: the plan is the retraction alone, made without loading any receipt.
     *
     * @throws RejectedException no id is given, the reason is empty, an id is named twice, or an id
     *     is not live at main's tip (never written, or already retracted): the violations the gate
     *     would report
     */
    public CleanupPlan planRetract(List<FactId> ids, String reason) throws RejectedException {
        Objects.requireNonNull(ids, "ids");
        Objects.requireNonNull(reason, "reason");
        CommitId head = store.head();
        try (Snapshot s = Snapshot.of(repo, ObjectId.fromString(head.hex()))) {
            return Withdrawals.retract(index, s, ids, reason, () -> cleanupAt(head));
        }
    }

    /**
     * Lands a plan as one signed commit by {@code actor}: the roots, then the cascade layer by layer,
     * then the sentence summaries revised.
     *
     * @throws ConflictException main moved since the plan was made (plan again)
     */
    public CommitResult apply(ActorName actor, CleanupPlan plan) throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(plan, "plan");
        if (!plan.at().equals(store.head())) {
            throw new ConflictException("main moved since the plan was made at " + plan.at().hex() + "; plan again");
        }
        if (plan.isEmpty()) {
            throw new RejectedException(Rule.EMPTY_PLAN, plan.operation().value(), "the plan changes nothing");
        }
        Transaction tx = store.begin(actor);
        Cascade.operations(plan, plan.revisions().isEmpty() ? null : cleanupAt(plan.at())).forEach(tx::add);
        return tx.commit();
    }

    /** The review queue at the tip of main; see {@link #review(CommitId)}. */
    public List<ReviewItem> review() {
        return store.atTip(this::review);
    }

    /**
     * The review queue at {@code at} (unmodifiable): touched-but-alive artifacts, facts with stale refs, and facts
     * whose concurrent revision lost a merge, unacknowledged; empty when nothing needs review.
     *
     * @throws NotFoundException when {@code at} is no commit of the store
     */
    public List<ReviewItem> review(CommitId at) throws NotFoundException {
        Objects.requireNonNull(at, "at");
        List<ReviewItem> cached = reviews.get(at);
        if (cached != null) {
            return cached;
        }
        ObjectId commit = dev.palimpsest.internal.query.Commits.require(repo, at);
        List<ReviewItem> items = new java.util.ArrayList<>(ReviewQueue.hasNoArtifacts(repo.repository(), commit)
                ? ReviewQueue.staleRefItems(index, commit) : ReviewQueue.items(index, cleanup(at)));
        items.addAll(ReviewQueue.concurrent(index, MergeLosses.at(repo.repository(), commit), commit));
        List<ReviewItem> out = List.copyOf(items);
        reviews.put(at, out);
        return out;
    }

    /**
     * Records that {@code item}, at its current version, was reviewed, with the note
     * {@code reviewed <item>}; see {@link #acknowledge(ActorName, FactId, String)}.
     *
     * @throws RejectedException the item is not live at main's tip (never written, or retracted)
     */
    public CommitResult acknowledge(ActorName actor, FactId item) throws RejectedException, ConflictException {
        return acknowledge(actor, item, "");
    }

    /**
     * Records that {@code item}, at its current version, was reviewed: a {@code review-ack} fact
     * citing it (role {@code acknowledges}, pinned to that version) whose body is {@code note}, one
     * signed commit. A blank {@code note} means {@code reviewed <item>}.
     *
     * @throws RejectedException the item is not live at main's tip (never written, or retracted)
     */
    public CommitResult acknowledge(ActorName actor, FactId item, String note) throws RejectedException,
            ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(item, "item");
        Objects.requireNonNull(note, "note");
        CommitId head = store.head();
        ExistsAt version;
        try {
            version = store.factExistsAt(item, head);
        } catch (NotFoundException e) {
            version = null;
        }
        if (version == null || !version.live()) {
            throw new RejectedException(Rule.NOT_LIVE, "fact " + item, "is not live at " + head.hex());
        }
        Transaction tx = store.begin(actor);
        tx.assertFact(FactSpec.of(Kind.of(ReviewQueue.ACK_KIND), note.isBlank() ? "reviewed " + item : note)
                .id(ReviewQueue.ackId(item, version.commit()))
                .refs(RefSpec.of(item, ReviewQueue.ACK_ROLE)));
        return tx.commit();
    }

    /**
     * Brings the entailed edges up to date with the live assertions and the ontology at main's tip,
     * writing only the changes as one commit (none when nothing changed). The entailer's state is
     * kept in memory between runs of this store and saved beside the repository
     * ({@code palimpsest-index/entail-v1.state}) for the next process: a run that starts from it reads
     * only the assertion and entailed-edge files changed since the state's commit and compares
     * receipts only in the region they reach. Without a usable state (none, unreadable, another
     * ontology, a commit not in main's past) it recomputes from scratch and compares every entailed
     * edge; {@link EntailResult#incremental()} and {@link EntailResult#basis()} say which ran.
     */
    public synchronized EntailResult entail(ActorName actor) throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        CommitId head = store.head();
        Entailment.Run run = entailment.prepare(ObjectId.fromString(head.hex()), c -> cleanupAt(head).graph());
        EntailSync.Changes ch = run.changes();
        if (ch.isEmpty()) {
            entailment.landed(run, null);
            return new EntailResult(null, 0, 0, 0, run.edges(), run.incremental(), run.basis());
        }
        Transaction tx = store.begin(actor);
        EntailSync.operations(ch).forEach(tx::add);
        CommitResult landed = tx.commit();
        entailment.landed(run, ObjectId.fromString(landed.id().hex()));
        return new EntailResult(landed, ch.added().size(), ch.revised().size(), ch.retracted().size(), run.edges(),
                run.incremental(), run.basis());
    }

    /**
     * The cascade a merge commit calls for, written by {@code actor} as one signed commit on top of
     * it through the gate: the artifacts that are pending cleanup at {@code merge} (no live bundle, or
     * dead sentences) but were not pending at any parent holding them live, i.e. whose receipt member
     * the other side retracted concurrently, are retracted (or revised to drop their dead sentences)
     * as {@code cleanup} would. Returns null when the merge calls for none, or when main moved meanwhile.
     */
    CommitResult cascadeAfterMerge(ActorName actor, CommitId merge, List<CommitId> parents) throws RejectedException {
        Cleanup atMerge = cleanupAt(merge);
        CleanupPlan all = atMerge.plan(dev.palimpsest.model.Withdrawal.RETRACT, List.of("merge " + merge.hex().substring(0, 12)),
                "a receipt member was retracted concurrently on the other side", new int[0]);
        if (all.isEmpty()) {
            return null;
        }
        List<Cleanup> before = new java.util.ArrayList<>();
        for (CommitId p : parents) {
            before.add(cleanupAt(p));
        }
        CleanupPlan plan = Cleanup.restrict(all, id -> before.stream().noneMatch(c -> c.pending(id)));
        if (plan.isEmpty()) {
            return null;
        }
        try {
            return apply(actor, plan);
        } catch (ConflictException e) {
            return null; // a local write moved main: the items stay pending, as after any merge
        }
    }

    /**
     * The trust policy at {@code at}: how flat summary receipts are treated and which layers'
     * receipts cleanup ignores.
     *
     * @throws NotFoundException when {@code at} is no commit of the store
     */
    public TrustPolicy trust(CommitId at) throws NotFoundException {
        return cleanup(Objects.requireNonNull(at, "at")).policy();
    }

    /**
     * Makes {@code policy} the store's trust policy in one signed commit by {@code actor} (a new
     * {@code palimpsest.yaml}); later plans, the review queue and {@code pending} follow it. Empty when
     * the policy already holds at main's tip (nothing is written).
     *
     * @throws ConflictException main moved while writing
     */
    public java.util.Optional<CommitResult> setTrust(ActorName actor, TrustPolicy policy) throws RejectedException,
            ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(policy, "policy");
        TrustPolicy now = cleanupAt(store.head()).policy();
        if (now.equals(policy)) {
            return java.util.Optional.empty();
        }
        java.util.Map<String, Boolean> layers = new java.util.HashMap<>();
        for (Layer l : TrustPolicy.DERIVED) {
            layers.put(l.value(), !policy.distrusts(l));
        }
        Transaction tx = store.begin(actor);
        tx.add(new Operation.Configure(policy.flat().value(), null, List.of(), layers));
        return java.util.Optional.of(tx.commit());
    }

    /**
     * Updates the trust policy from an audit of the receipts ({@code report}, best made under
     * {@link TrustPolicy#TRUST_ALL} so that every receipt is graded as written): each layer with a
     * decided artifact is distrusted when its leaky share exceeds {@code maxLeaky}, trusted otherwise;
     * layers nothing decided keep their setting. Returns the policy now in force and the commit, empty
     * when nothing changed.
     *
     * @throws RejectedException {@code maxLeaky} outside [0, 1]
     * @throws ConflictException main moved while writing
     */
    public TrustChange applyVerdict(ActorName actor, RederiveReport report, double maxLeaky) throws RejectedException,
            ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(report, "report");
        if (!(maxLeaky >= 0.0 && maxLeaky <= 1.0)) {
            throw new RejectedException(Rule.INVALID_ARGUMENT, "--max-leaky", "must be in [0, 1], got " + maxLeaky);
        }
        TrustPolicy next = cleanupAt(store.head()).policy();
        for (Layer l : TrustPolicy.DERIVED) {
            RederiveReport.LayerAudit a = report.layers().get(l);
            if (a != null && a.alive() + a.dead() > 0) {
                next = next.with(l, a.leakyShare() <= maxLeaky);
            }
        }
        java.util.Optional<CommitResult> written = setTrust(actor, next);
        return new TrustChange(next, written.map(CommitResult::id));
    }

    /** The cleanup at a commit known to exist (main's tip, or a plan's). */
    private Cleanup cleanupAt(CommitId at) {
        try {
            return cleanup(at);
        } catch (NotFoundException e) {
            throw new PalimpsestInternalException("main's tip vanished: " + e.getMessage(), e);
        }
    }

    /** The cleanup at {@code at} under {@code policy} instead of the commit's own (not cached). */
    Cleanup cleanup(CommitId at, TrustPolicy policy) throws NotFoundException {
        Cleanup own = cleanup(at);
        return own.policy().equals(policy) ? own : new Cleanup(own.graph(), policy);
    }

    Cleanup cleanup(CommitId at) throws NotFoundException {
        ObjectId c = ObjectId.fromString(at.hex());
        Cleanup l = last;
        if (l != null && l.graph().commit().equals(c)) {
            return l;
        }
        store.commit(at);
        Cleanup fresh = new Cleanup(ReceiptGraph.load(repo, index, c, cache));
        last = fresh;
        return fresh;
    }
}
