package dev.palimpsest.api;

import dev.palimpsest.internal.claims.ClaimQueries;
import dev.palimpsest.internal.claims.ClaimsIndex;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.query.Commits;
import dev.palimpsest.internal.search.Relevance;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.ClaimResult;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.DeadEnds;
import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RejectedException;
import java.util.List;
import java.util.Objects;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Claims about entities (facts of kind {@code entity-claim}: subject, predicate, object, at least
 * one source, optional run and confidence) and the questions an agent asks before and after it
 * writes one: what is believed about an entity now ({@link #current}), how a belief was corrected
 * ({@link #chain}), which corrections not to walk into again ({@link #deadEnds}), and where memory
 * disagrees with itself ({@link #contradictions}). Each answers at any commit of main, from the
 * persisted claims index (opened, and caught up with main, on first use). Subjects and predicates
 * match by their {@link dev.palimpsest.model.EntityKey}.
 *
 * <p>Writing a claim never resolves a contradiction: {@link #claim} lands it and reports the live
 * claims it contradicts; resolution is an explicit {@link #supersede}. Thread-safe.
 */
public final class Claims {
    private final Store store;
    private final GitRepo repo;
    private final Writer writer;
    private ClaimQueries queries;

    Claims(Store store, GitRepo repo, Writer writer) {
        this.store = store;
        this.repo = repo;
        this.writer = writer;
    }

    private ClaimsIndex claimsIndex;

    /** The vault generation the open index was built under. */
    private long generation;

    private ClaimQueries q() {
        long g = writer.watch().check();
        synchronized (this) {
            if (queries != null && g != generation) {
                scrub(); // a forget was seen since it was built: what it holds may be erased content
            }
            return openHeld(g);
        }
    }

    /** Drops the claims index when a forget was seen since it was built. */
    void dropIfStale() {
        long g = writer.watch().check();
        synchronized (this) {
            if (queries != null && g != generation) {
                scrub();
            }
        }
    }

    private synchronized ClaimQueries openHeld(long g) {
        if (queries == null) {
            generation = g;
            ClaimsIndex index = ClaimsIndex.open(repo);
            writer.addListener(index);
            claimsIndex = index;
            queries = new ClaimQueries(index);
        }
        return queries;
    }

    /** Drops the in-memory claims index: the next question loads it again (from git when its log was deleted). */
    synchronized void scrub() {
        if (claimsIndex != null) {
            writer.removeListener(claimsIndex);
            claimsIndex = null;
            queries = null;
        }
    }

    /**
     * Writes the claim as one signed commit and reports the live claims it contradicts at that
     * commit (same subject and predicate, another object; never for a multi-valued predicate).
     *
     * @throws RejectedException missing triple or source, a predicate over 200 characters ({@code too-large}), an
     *     unknown source, a bad run, text holding a lone surrogate ({@code invalid-text}), ...
     */
    public ClaimResult claim(ActorName actor, ClaimSpec spec) throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(spec, "spec");
        ClaimQueries q = q();
        Transaction tx = store.begin(actor);
        FactId id = tx.assertFact(withSuccessions(q, factSpec(spec), spec));
        return landed(q, id, tx.commit(), spec);
    }

    /**
     * The claim as the fact it is written as; rejected, before anything is written, when its triple
     * cannot be one: a predicate over {@link dev.palimpsest.model.Limits#MAX_PREDICATE} characters
     * ({@code too-large}) or a blank part ({@code claim-triple}).
     */
    private static dev.palimpsest.model.FactSpec factSpec(ClaimSpec spec) throws RejectedException {
        String subject = spec.id() == null ? "claim" : "fact " + spec.id();
        int n = spec.predicate().length();
        if (n > dev.palimpsest.model.Limits.MAX_PREDICATE) {
            throw new RejectedException(dev.palimpsest.model.Rule.TOO_LARGE, subject, "the predicate is " + n
                    + " characters, over the limit of " + dev.palimpsest.model.Limits.MAX_PREDICATE);
        }
        try {
            return spec.toFactSpec();
        } catch (IllegalArgumentException e) {
            throw new RejectedException(dev.palimpsest.model.Rule.CLAIM_TRIPLE, subject, e.getMessage());
        }
    }

    /**
     * Corrects {@code old} by a new claim that supersedes it (by addition: {@code old} stays, now a
     * dead end). Rejected when {@code old} is already superseded by a live fact (the message names
     * its successor) or when the new claim's id is {@code old}.
     */
    public ClaimResult supersede(ActorName actor, FactId old, ClaimSpec spec)
            throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(old, "old");
        Objects.requireNonNull(spec, "spec");
        ClaimQueries q = q();
        Transaction tx = store.begin(actor);
        FactId id = tx.supersede(old, withSuccessions(q, factSpec(spec), spec));
        return landed(q, id, tx.commit(), spec);
    }

    /**
     * Writes the claim (or, when {@code old} is not null, the correction of {@code old}) only if the
     * reviewer accepts it, with the verdict recorded in the claim ({@code review:}: reviewer model,
     * {@code model_accepted}, reason). The claim's first source must carry a quote: the anchor checks
     * it against that source's body at main's tip, then {@code reviewer} is asked as by
     * {@link Verification#verify(dev.palimpsest.model.Judge, String, String, String)} about the claim's
     * body (default: subject, predicate and object joined by spaces).
     *
     * @throws RejectedException rule {@code claim-not-verified} (no quote, a source not live, the anchor
     *     or the reviewer rejected: the reason is in the message; nothing is written), or any rule of
     *     {@link #claim}
     * @deprecated a null {@code old} meant a new claim; use {@link #claimVerified(ActorName, ClaimSpec,
     *     dev.palimpsest.model.Judge)} or {@link #supersedeVerified(ActorName, FactId, ClaimSpec,
     *     dev.palimpsest.model.Judge)}.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public ClaimResult claimVerified(ActorName actor, ClaimSpec spec, FactId old, dev.palimpsest.model.Judge reviewer)
            throws RejectedException, ConflictException {
        return verified(actor, spec, old, reviewer);
    }

    /**
     * Writes the claim only if {@code reviewer} accepts it, with the verdict recorded in the claim;
     * the checks are those of {@link #supersedeVerified}, without a claim to correct.
     *
     * @throws RejectedException rule {@code claim-not-verified}, or any rule of {@link #claim}
     */
    public ClaimResult claimVerified(ActorName actor, ClaimSpec spec, dev.palimpsest.model.Judge reviewer)
            throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(reviewer, "reviewer");
        return verified(actor, spec, null, reviewer);
    }

    /**
     * Corrects {@code old} by the claim (as {@link #supersede}) only if {@code reviewer} accepts it,
     * with the verdict recorded in the claim ({@code review:}: reviewer model, {@code
     * model_accepted}, reason). The claim's first source must carry a quote: the anchor checks it
     * against that source's body at main's tip, then {@code reviewer} is asked as by {@link
     * Verification#verify(dev.palimpsest.model.Judge, String, String, String)} about the claim's body.
     *
     * @throws RejectedException rule {@code claim-not-verified} (no quote, a source not live, the anchor
     *     or the reviewer rejected: the reason is in the message; nothing is written), or any rule of
     *     {@link #supersede}
     */
    public ClaimResult supersedeVerified(ActorName actor, FactId old, ClaimSpec spec, dev.palimpsest.model.Judge reviewer)
            throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(old, "old");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(reviewer, "reviewer");
        return verified(actor, spec, old, reviewer);
    }

    private ClaimResult verified(ActorName actor, ClaimSpec spec, FactId old, dev.palimpsest.model.Judge reviewer)
            throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(reviewer, "reviewer");
        dev.palimpsest.model.FactSpec f = factSpec(spec);
        dev.palimpsest.model.RefSpec first = spec.sources().isEmpty() ? null : spec.sources().get(0);
        if (first == null || first.quote() == null) {
            throw new RejectedException(dev.palimpsest.model.Rule.CLAIM_NOT_VERIFIED, "quote",
                    "a verified claim needs a quote from its first source");
        }
        String body;
        try {
            body = new Verification(store).body(first.target(), store.head());
        } catch (NotFoundException e) {
            throw new RejectedException(dev.palimpsest.model.Rule.CLAIM_NOT_VERIFIED, "source " + first.target(),
                    e.getMessage());
        }
        dev.palimpsest.model.Verdict v = Verification.verify(reviewer, f.body(), first.quote(), body);
        if (!v.accepted()) {
            throw new RejectedException(dev.palimpsest.model.Rule.CLAIM_NOT_VERIFIED, "claim",
                    (v.modelAccepted() == null ? "anchor: " : "reviewer " + reviewer.model() + ": ")
                            + (v.reason() == null ? "not supported" : v.reason()));
        }
        f = f.grounding(f.grounding().withReview(dev.palimpsest.model.ClaimReview.of(reviewer.model(), v)));
        ClaimQueries q = q();
        f = withSuccessions(q, f, spec);
        Transaction tx = store.begin(actor);
        FactId id = old == null ? tx.assertFact(f) : tx.supersede(old, f);
        return landed(q, id, tx.commit(), spec);
    }

    /**
     * Declares {@code predicates} multi-valued in {@code palimpsest.yaml} (one signed commit): live
     * claims that differ only in the object of such a predicate are no contradiction. The keys are
     * normalised ({@link dev.palimpsest.model.EntityKey}) and merged with those declared before.
     *
     * @throws RejectedException a predicate without a word character, or nothing would change
     */
    public CommitResult declareMultiValued(ActorName actor, List<String> predicates)
            throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(predicates, "predicates");
        List<dev.palimpsest.model.Violation> bad = new java.util.ArrayList<>();
        for (String p : predicates) {
            if (dev.palimpsest.model.EntityKey.of(Objects.requireNonNull(p, "predicate")).isEmpty()) {
                bad.add(new dev.palimpsest.model.Violation(dev.palimpsest.model.Rule.INVALID_CONFIG, "multi_valued",
                        "'" + p + "' holds no word character"));
            }
        }
        ClaimsIndex index = q().index();
        java.util.Set<String> declared = index.atomically(() -> index.multiValuedAt(index.headSeq()));
        if (bad.isEmpty() && predicates.stream().allMatch(p -> declared.contains(dev.palimpsest.model.EntityKey.of(p)))) {
            bad.add(new dev.palimpsest.model.Violation(dev.palimpsest.model.Rule.EMPTY_TRANSACTION, "multi_valued",
                    "every predicate given is already declared multi-valued"));
        }
        if (!bad.isEmpty()) {
            throw new RejectedException(bad);
        }
        Transaction tx = store.begin(actor);
        tx.add(new dev.palimpsest.internal.write.Operation.Configure(null, null, predicates));
        return tx.commit();
    }

    private ClaimResult landed(ClaimQueries q, FactId id, CommitResult r, ClaimSpec spec) {
        List<ClaimResult.Conflict> conflicts = q.index().atomically(() -> {
            int seq = q.index().seq(ObjectId.fromString(r.id().hex()));
            return q.conflicts(spec.subject(), spec.predicate(), spec.object(), seq, store.validities(r.id()),
                    store.effectiveValidity(id.value(), r.id()));
        }).stream().filter(c -> !c.id().equals(id)).toList();
        return new ClaimResult(id, r.id(), conflicts);
    }

    /** The claims' validity, succession applied, at commit number {@code seq}. */
    private ClaimQueries.Validities validities(ClaimQueries q, int seq) {
        return store.validities(CommitId.of(q.index().commitAt(seq).name()));
    }

    /**
     * {@code f} with the succession refs the claim {@code spec} calls for at main's tip: when it
     * states a {@code valid_from} and its predicate is single-valued there, each live claim on the
     * same subject and predicate with another object whose validity (succession applied) holds at
     * that instant and started before it is closed there ({@code invalidates}); a claim starting
     * within this one's validity, after its start, closes this one ({@code invalidated_by}). What
     * overlaps otherwise stays a contradiction.
     */
    dev.palimpsest.model.FactSpec withSuccessions(dev.palimpsest.model.FactSpec f, ClaimSpec spec) {
        return withSuccessions(q(), f, spec);
    }

    private dev.palimpsest.model.FactSpec withSuccessions(ClaimQueries q, dev.palimpsest.model.FactSpec f, ClaimSpec spec) {
        if (spec.validFrom() == null) {
            return f;
        }
        return q.index().atomically(() -> withSuccessionsAtHead(q, f, spec));
    }

    private dev.palimpsest.model.FactSpec withSuccessionsAtHead(ClaimQueries q, dev.palimpsest.model.FactSpec f,
            ClaimSpec spec) {
        int seq = q.index().headSeq();
        if (seq < 0 || q.index().multiValuedAt(seq).contains(EntityKey.of(spec.predicate()))) {
            return f;
        }
        long from = spec.validFrom().getEpochSecond();
        long until = spec.validUntil() == null ? Long.MAX_VALUE : spec.validUntil().getEpochSecond();
        CommitId head = CommitId.of(q.index().commitAt(seq).name());
        String object = EntityKey.of(spec.object());
        List<dev.palimpsest.model.RefSpec> refs = new java.util.ArrayList<>(f.refs());
        for (ClaimView c : q.current(spec.subject(), spec.predicate(), seq)) {
            if (EntityKey.of(c.object()).equals(object) || spec.id() != null && spec.id().equals(c.id())) {
                continue;
            }
            long[] v = store.effectiveValidity(c.id().value(), head);
            if (v == null) {
                continue;
            }
            if (v[0] < from && from < v[1]) {
                refs.add(dev.palimpsest.model.RefSpec.of(c.id(), dev.palimpsest.model.RefRole.INVALIDATES));
            } else if (from < v[0] && v[0] < until) {
                refs.add(dev.palimpsest.model.RefSpec.of(c.id(), dev.palimpsest.model.RefRole.INVALIDATED_BY));
            }
        }
        return refs.size() == f.refs().size() ? f : f.refs(refs);
    }

    /**
     * The live claims about {@code subject} at the tip of main, every predicate, oldest first; empty
     * when there is none.
     */
    public List<ClaimView> current(String subject) {
        Objects.requireNonNull(subject, "subject");
        ClaimQueries q = q();
        return q.index().atomically(() -> q.current(subject, null, q.index().headSeq()));
    }

    /** The live claims about {@code subject}'s {@code predicate} at the tip of main, oldest first. */
    public List<ClaimView> current(String subject, String predicate) {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(predicate, "predicate");
        ClaimQueries q = q();
        return q.index().atomically(() -> q.current(subject, predicate, q.index().headSeq()));
    }

    /**
     * The live claims about {@code subject} at {@code at} (only {@code predicate}'s when not null), oldest first.
     *
     * @deprecated a null predicate meant every predicate; use {@link #at(CommitId)} with {@link
     *     ClaimsAt#current(String)} or {@link ClaimsAt#current(String, String)} ({@link #current(String)}
     *     and {@link #current(String, String)} at the tip).
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public List<ClaimView> current(String subject, String predicate, CommitId at) throws NotFoundException {
        Objects.requireNonNull(subject, "subject");
        return index().atomically(() -> current(subject, predicate, seq(at), java.util.Optional.empty()));
    }

    /** The correction chain of ({@code subject}, {@code predicate}) at the tip of main, oldest first. */
    public List<ClaimView> chain(String subject, String predicate) {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(predicate, "predicate");
        ClaimQueries q = q();
        return q.index().atomically(() -> q.chain(subject, predicate, q.index().headSeq()));
    }

    /**
     * The correction chain of ({@code subject}, {@code predicate}) at {@code at}, oldest first.
     *
     * @deprecated use {@code at(at).chain(subject, predicate)} ({@link ClaimsAt#chain}), or {@link
     *     #chain(String, String)} at the tip.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public List<ClaimView> chain(String subject, String predicate, CommitId at) throws NotFoundException {
        return at(at).chain(subject, predicate);
    }

    /**
     * The superseded or retracted claims about {@code subject} at the tip of main, newest correction
     * first (correction commit, then id), at most {@code max}, with how many were left out.
     *
     * @throws IllegalArgumentException when {@code max} is negative
     */
    public DeadEnds deadEnds(String subject, int max) {
        Objects.requireNonNull(subject, "subject");
        requireMax(max);
        ClaimQueries q = q();
        return q.index().atomically(() -> q.deadEnds(subject, max, q.index().headSeq()));
    }

    /**
     * The superseded or retracted claims about {@code subject} at the tip of main, most relevant to
     * {@code query} first (BM25 of each claim's triple over the subject's dead ends, with the search
     * index's English analysis), equally relevant ones (and all of them, for a blank query) newest
     * correction first; at most {@code max}, with how many were left out.
     *
     * @throws IllegalArgumentException when {@code max} is negative
     */
    public DeadEnds deadEnds(String subject, String query, int max) {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(query, "query");
        requireMax(max);
        ClaimQueries q = q();
        return ranked(q.index().atomically(() -> q.deadEnds(subject, Integer.MAX_VALUE, q.index().headSeq())), query, max);
    }

    /** {@code all} (every dead end, newest correction first) most relevant to {@code query} first, at most {@code max}. */
    static DeadEnds ranked(DeadEnds all, String query, int max) {
        List<ClaimView> ranked = Relevance.rank(all.kept(), v -> v.subject() + " " + v.predicate() + " " + v.object(),
                query);
        int keep = Math.min(max, ranked.size());
        return new DeadEnds(ranked.subList(0, keep), ranked.size() - keep);
    }

    /**
     * The superseded or retracted claims about {@code subject} at {@code at}, newest correction
     * first (correction commit, then id), at most {@code max}, with how many were left out.
     *
     * @deprecated use {@code at(at).deadEnds(subject, max)} ({@link ClaimsAt#deadEnds}), or {@link
     *     #deadEnds(String, int)} at the tip.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public DeadEnds deadEnds(String subject, int max, CommitId at) throws NotFoundException {
        return at(at).deadEnds(subject, max);
    }

    /** Groups of live claims with one subject and predicate and different objects at the tip of main. */
    public List<Contradiction> contradictions() {
        ClaimQueries q = q();
        return q.index().atomically(() -> {
            int seq = q.index().headSeq();
            return q.contradictions(null, seq, validities(q, seq), null);
        });
    }

    /** The groups of {@link #contradictions()} whose subject is {@code subject}. */
    public List<Contradiction> contradictions(String subject) {
        Objects.requireNonNull(subject, "subject");
        ClaimQueries q = q();
        return q.index().atomically(() -> {
            int seq = q.index().headSeq();
            return q.contradictions(subject, seq, validities(q, seq), null);
        });
    }

    /**
     * Groups of live claims with one subject and predicate and different objects at {@code at}; one subject when not null.
     *
     * @deprecated a null subject meant every subject; use {@code at(at).contradictions()} or {@code
     *     at(at).contradictions(subject)} ({@link ClaimsAt}), or {@link #contradictions()} and {@link
     *     #contradictions(String)} at the tip.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public List<Contradiction> contradictions(String subject, CommitId at) throws NotFoundException {
        return index().atomically(() -> contradictions(subject, seq(at), java.util.Optional.empty()));
    }

    /**
     * The same questions asked at commit {@code at} of main instead of its tip; the commit is checked
     * by each question ({@link NotFoundException} when it is not on main's first-parent history).
     */
    public ClaimsAt at(CommitId at) {
        return new ClaimsAt(this, Objects.requireNonNull(at, "at"));
    }

    List<ClaimView> current(String subject, String predicate, int seq, java.util.Optional<java.time.Instant> validAt) {
        ClaimQueries q = q();
        return q.current(subject, predicate, seq, validities(q, seq), validAt.map(java.time.Instant::getEpochSecond)
                .orElse(null));
    }

    List<ClaimView> chain(String subject, String predicate, int seq, java.util.Optional<java.time.Instant> validAt) {
        ClaimQueries q = q();
        List<ClaimView> all = q.chain(subject, predicate, seq);
        if (validAt.isEmpty()) {
            return all;
        }
        CommitId c = CommitId.of(q.index().commitAt(seq).name());
        long t = validAt.get().getEpochSecond();
        return all.stream().filter(v -> {
            long[] own = store.ownValidity(v.id().value(), c);
            return dev.palimpsest.internal.index.PredicateIndex.holdsAt(own, t);
        }).toList();
    }

    DeadEnds deadEnds(String subject, int max, int seq) {
        requireMax(max);
        return q().deadEnds(subject, max, seq);
    }

    DeadEnds deadEnds(String subject, String query, int max, int seq) {
        requireMax(max);
        return ranked(q().deadEnds(subject, Integer.MAX_VALUE, seq), query, max);
    }

    List<Contradiction> contradictions(String subject, int seq, java.util.Optional<java.time.Instant> validAt) {
        ClaimQueries q = q();
        return q.contradictions(subject, seq, validities(q, seq), validAt.map(java.time.Instant::getEpochSecond)
                .orElse(null));
    }

    private static void requireMax(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("max must not be negative, got " + max);
        }
    }

    /** The entity keys with a live claim at the tip of main that start with {@code prefix}; see {@link #entities(String, int, CommitId)}. */
    public List<String> entities(String prefix, int limit) {
        Objects.requireNonNull(prefix, "prefix");
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, got " + limit);
        }
        ClaimQueries q = q();
        return q.index().atomically(() -> q.subjects(EntityKey.of(prefix), limit, q.index().headSeq()));
    }

    /**
     * The entity keys that start with the key of {@code prefix} (empty: any) and have a live claim
     * about them at {@code at}, in key order, at most {@code limit}: what an entity being typed can
     * complete to.
     */
    public List<String> entities(String prefix, int limit, CommitId at) throws NotFoundException {
        Objects.requireNonNull(prefix, "prefix");
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, got " + limit);
        }
        ClaimQueries q = q();
        return q.index().atomically(() -> q.subjects(EntityKey.of(prefix), limit, seq(at)));
    }

    /** The claims index, opened and caught up on first use (for recall). */
    ClaimsIndex index() {
        return q().index();
    }

    int seq(CommitId at) throws NotFoundException {
        Objects.requireNonNull(at, "at");
        ObjectId given = ObjectId.fromString(at.hex());
        int known = q().index().indexedSeq(given);
        if (known >= 0) {
            return known; // an indexed commit is a commit of this store
        }
        ObjectId c = Commits.require(repo, at);
        int seq = q().index().seq(c);
        if (seq < 0) {
            throw new NotFoundException("commit " + at.hex() + " is not on main's history");
        }
        return seq;
    }
}
