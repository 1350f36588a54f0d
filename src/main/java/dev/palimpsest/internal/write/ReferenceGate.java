package dev.palimpsest.internal.write;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.internal.crypto.TrustedKey;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.query.Lineage;
import dev.palimpsest.internal.query.Versions;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.internal.yaml.StoreConfig;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.Violation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;

/**
 * The one reference gate: every write path hands its operations here, against the commit the write
 * lands on, and gets back a plan of file changes or a {@link RejectedException} listing every
 * violation. New refs are pinned to the last navigable version of their target at the commit they
 * were read at; refs a fact already carried are not re-checked. Not thread-safe (one per write).
 */
final class ReferenceGate {
    final GitRepo repo;
    final PredicateIndex index;
    final Snapshot parent;
    final Versions versions;
    private final List<Violation> violations = new ArrayList<>();
    final Map<String, byte[]> files = new LinkedHashMap<>();
    /** The fact each fact file in {@link #files} encodes, for the index (which would otherwise decode it). */
    final Map<String, Fact> facts = new HashMap<>();
    final Map<FactId, Fact> pending = new HashMap<>();
    final Set<FactId> touched = new HashSet<>();
    final List<FactId> written = new ArrayList<>();
    private final List<FactId> retracted = new ArrayList<>();
    /** Facts this transaction writes sealed (their key is created in the vault before the commit). */
    final Set<FactId> toSeal = new HashSet<>();
    /** Data keys this gate created in the vault: destroyed again when the write does not land. */
    final Set<FactId> createdKeys = new HashSet<>();
    final List<FactId> forgotten = new ArrayList<>();
    final dev.palimpsest.internal.forget.Forgetting forgetting;
    private StoreConfig config;
    final CommitMessage message = new CommitMessage();
    private final KeyRules keys;
    private final ReceiptRules rules = new ReceiptRules(this);
    private final ClaimRules claims = new ClaimRules(this);
    private final RefResolver resolver = new RefResolver(this);
    private final ForgetRules forgets = new ForgetRules(this);
    private final GovernanceRules governance = new GovernanceRules(this);
    private ActorName actor;

    /** {@code parent} is null only for the genesis commit. */
    ReferenceGate(GitRepo repo, PredicateIndex index, Snapshot parent,
            dev.palimpsest.internal.forget.Forgetting forgetting) {
        this.forgetting = forgetting;
        this.repo = repo;
        this.index = index;
        this.parent = parent;
        this.versions = parent == null ? null : new Versions(index, parent);
        this.keys = new KeyRules(parent, files, message, violations);
    }

    Plan check(ActorName actor, List<Operation> ops) throws RejectedException {
        this.actor = actor;
        if (ops.isEmpty()) {
            throw new RejectedException(Rule.EMPTY_TRANSACTION, "transaction", "a transaction needs at least one operation");
        }
        for (Operation op : ops) {
            if (parent == null && !(op instanceof Operation.Init)) {
                violation(Rule.NO_STORE, "transaction", "the store has no commit yet; initialise it first");
                continue;
            }
            if (op instanceof Operation.Init i) {
                init(i);
            } else if (op instanceof Operation.Assert a) {
                assertFact(a);
            } else if (op instanceof Operation.Revise r) {
                revise(r);
            } else if (op instanceof Operation.Retract r) {
                retract(actor, r);
            } else if (op instanceof Operation.Forget f) {
                forgets.forget(actor, f, null);
            } else if (op instanceof Operation.KeyAdd k) {
                keys.add(k);
            } else if (op instanceof Operation.KeyRevoke k) {
                keys.revoke(k);
            } else if (op instanceof Operation.Reground r) {
                rules.reground(r);
            } else if (op instanceof Operation.Configure c) {
                rules.configure(c);
            }
        }
        rules.finish();
        if (!violations.isEmpty()) {
            throw new RejectedException(violations);
        }
        return new Plan(files, facts, written, retracted, forgotten, message.build(actor));
    }

    private void init(Operation.Init i) {
        if (parent != null) {
            violation(Rule.ALREADY_INITIALISED, "store", "the store is already initialised");
            return;
        }
        try {
            files.put(StorePaths.CONFIG, FactCodec.encode(StoreConfig.current().withSealing(i.encrypt(), i.retention())
                    .withAgentsMay(i.agentsMay())));
        } catch (IllegalArgumentException e) {
            violation(Rule.INVALID_CONFIG, StorePaths.CONFIG, e.getMessage());
            return;
        }
        files.putAll(KeyRules.keyFiles(i.actor(), TrustedKey.parse(i.armoredPublicKey()), KeyRole.HUMAN));
        message.add("init", CommitMessage.KEY, i.actor().value(), null);
    }

    private void assertFact(Operation.Assert a) {
        FactId id = a.id();
        String subject = "fact " + id;
        if (!touched.add(id)) {
            violation(Rule.DUPLICATE_OPERATION, subject, "is written more than once in one transaction");
            return;
        }
        claims.supersessions(id, a.refs());
        if (versions.live(id)) {
            violation(Rule.ALREADY_EXISTS, subject, "already exists (live at " + parent.commit().name()
                    + "); revise it or assert a new id");
            return;
        }
        dev.palimpsest.internal.yaml.TombstoneRecord tomb = dev.palimpsest.internal.forget.Forgetting.tombstone(parent, id);
        if (tomb != null) {
            violation(Rule.FORGOTTEN, subject, "was forgotten at " + forgetting.tombstoneCommit(id, parent.commit()).name()
                    + "; a forgotten id is never written again");
            return;
        }
        if (!sealing(a)) {
            return;
        }
        List<Ref> refs = resolver.resolve(id, a.refs(), List.of());
        Set<FactId> sealedCited = resolver.sealedTargets();
        governance.supersessions(actor, id, refs);
        java.util.SortedMap<FactId, Double> pooled = null;
        if (a.poolEvidence()) {
            List<FactId> inputs = refs.stream().filter(r -> RefRole.MERGED_FROM.equals(r.role())).map(Ref::id).toList();
            pooled = Lineage.mass(repo, index, inputs, parent.commit()).bySource();
        }
        java.util.SortedMap<FactId, Double> pool = pooled;
        java.time.Instant deadline = retainUntil(a);
        Fact built = fact(id, () -> new Fact(id, a.kind(), a.body(), a.confidence(), refs, pool, a.grounding(),
                a.run(), null, deadline, false, new dev.palimpsest.model.Validity(
                        a.validFrom() == null ? java.time.Instant.MIN : a.validFrom(),
                        a.validUntil() == null ? java.time.Instant.MAX : a.validUntil())));
        Fact full = built == null ? null : inheritSeal(a, built, sealedCited);
        if (full == null || !claims.claim(a, full) | !successions(full, refs)
                | !rules.asserted(full, StorePaths.factPath(full.kind(), id))) {
            return;
        }
        pending.put(id, full);
        putFact(StorePaths.factPath(full.kind(), id), full); // a receipt-bearing fact is rewritten, pinned, by finish()
        files.put(StorePaths.retractionPath(id), null);
        written.add(id);
        message.add(a.verb(), CommitMessage.FACT, id.value(), toSeal.contains(id) ? null : full.body());
        message.run(full.run());
    }

    private void revise(Operation.Revise r) {
        FactId id = r.id();
        String subject = "fact " + id;
        if (!touched.add(id)) {
            violation(Rule.DUPLICATE_OPERATION, subject, "is written more than once in one transaction");
            return;
        }
        Versions.Located loc = versions.locate(id);
        if (loc == null) {
            notLive(id, "revise");
            return;
        }
        Fact current = decode(loc);
        if (current == null) {
            return;
        }
        if (current.contentUnavailable()) {
            violation(Rule.FORGOTTEN, subject, "its sealed content is unavailable (no data key)");
            return;
        }
        if (current.seal() != null) {
            toSeal.add(id);
        }
        claims.supersessions(id, r.addRefs().stream().filter(s -> current.refs().stream()
                .noneMatch(c -> c.id().equals(s.target()) && c.role().equals(s.role()))).toList());
        String body = r.body() == null ? current.body() : r.body();
        Double confidence = r.confidence() == null ? current.confidence() : r.confidence();
        List<Ref> added = resolver.resolve(id, r.addRefs(), current.refs());
        Set<FactId> sealedCited = resolver.sealedTargets();
        governance.supersessions(actor, id, added);
        if (!dev.palimpsest.internal.rules.SealRules.plaintextCiter(current, sealedCited, true,
                (rule, msg) -> violation(rule, subject, msg))) {
            return;
        }
        List<Ref> unchanged = new ArrayList<>(current.refs());
        unchanged.addAll(added);
        Fact same = fact(id, () -> new Fact(id, current.kind(), body, confidence, unchanged, current.pooled(),
                current.grounding(), current.run(), current.seal(), current.retainUntil(), current.plaintext(),
                new dev.palimpsest.model.Validity(r.validFrom() == null ? current.validity().from() : r.validFrom(),
                        r.validUntil() == null ? current.validity().until() : r.validUntil())));
        if (same == null) {
            return;
        }
        if (current.seal() != null ? same.equals(current)
                : new ObjectInserter.Formatter().idFor(Constants.OBJ_BLOB, FactCodec.encode(same)).equals(loc.blob())) {
            violation(Rule.NO_CHANGE, subject, "the revision changes nothing");
            return;
        }
        List<Ref> refs = new ArrayList<>(pinCarried(id, current.refs()));
        refs.addAll(added);
        Fact next = new Fact(id, current.kind(), body, confidence, refs, current.pooled(), current.grounding(),
                current.run(), null, current.retainUntil(), current.plaintext(), same.validity());
        if (!successions(next, added) || !current.validity().equals(next.validity())
                && !dev.palimpsest.internal.rules.SuccessionRules.revised(current, next,
                        c -> c.sameTransaction() ? pending.get(c.id()) : pinned(c), successionCiters(id),
                        (rule, msg) -> violation(rule, subject, msg))) {
            return;
        }
        putFact(loc.path(), next);
        written.add(id);
        message.add("revise", CommitMessage.FACT, id.value(), toSeal.contains(id) ? null : next.body());
    }

    /**
     * Refs carried into a new version keep what they meant: a same-transaction ref (no pin) meant
     * "the target as of the commit that introduced the previous version", so it is pinned there.
     */
    private List<Ref> pinCarried(FactId referrer, List<Ref> carried) {
        List<Ref> out = new ArrayList<>(carried.size());
        FactVersion prev = null;
        for (Ref r : carried) {
            if (!r.sameTransaction()) {
                out.add(r);
                continue;
            }
            if (prev == null) {
                prev = versions.existsAt(referrer).orElseThrow();
            }
            Optional<FactVersion> target = Optional.ofNullable(index.state(r.id(),
                    ObjectId.fromString(prev.commit().hex()))).map(st -> new FactVersion(r.id(),
                            CommitId.of(st.versionCommit().name()), dev.palimpsest.model.BlobId.of(st.blob().name())));
            out.add(target.isPresent()
                    ? new Ref(r.id(), r.role(), target.get().commit(), target.get().blob(), r.quote(), r.quoteSealed())
                    : r);
        }
        return out;
    }

    private void retract(ActorName actor, Operation.Retract r) {
        FactId id = r.id();
        boolean repeated = !touched.add(id);
        dev.palimpsest.internal.index.FactState state = repeated ? null : versions.state(id);
        Versions.Located loc = repeated ? null : versions.locate(id, state);
        Violation bad = RetractRules.check(id, r.reason(), repeated, loc, versions);
        if (bad != null) {
            violations.add(bad);
            return;
        }
        FactVersion version = Versions.version(id, state).orElseThrow();
        if (!governance.retraction(actor, id, version)) {
            return;
        }
        files.put(loc.path(), null);
        files.put(StorePaths.retractionPathOf(loc.path()), FactCodec.encode(new RetractionRecord(version, r.reason(),
                actor)));
        retracted.add(id);
        message.add("retract", CommitMessage.FACT, id.value(), r.reason());
    }

    /** The succession rule ({@link dev.palimpsest.internal.rules.SuccessionRules}) on the new refs {@code added} of {@code f}; true when none broke. */
    private boolean successions(Fact f, List<Ref> added) {
        boolean ok = true;
        for (Ref r : added) {
            if (!dev.palimpsest.internal.rules.SuccessionRules.isSuccession(r.role())) {
                continue;
            }
            Fact target = r.sameTransaction() ? pending.get(r.id()) : pinned(r);
            ok &= dev.palimpsest.internal.rules.SuccessionRules.check(f, r, target,
                    (rule, msg) -> violation(rule, "ref " + f.id() + " -> " + r.id(), msg));
        }
        return ok;
    }

    /**
     * The versions, at the tip this commit lands on, of the facts live there that cite {@code id} with
     * a succession role ({@code invalidates}, {@code invalidated_by}); one that does not decode is left
     * out (the audit reports it where it was written).
     */
    private List<Fact> successionCiters(FactId id) {
        List<Fact> out = new ArrayList<>();
        for (dev.palimpsest.internal.index.FactState st : index.liveSuccessionCiters(id.value(), parent.commit())) {
            try {
                out.add(FactCodec.decodeFact(parent.read(st.blob()), "a claim citing " + id, repo.vault()));
            } catch (FormatException | RuntimeException e) {
                // not a fact this gate can read: nothing to hold the revision to
            }
        }
        return out;
    }

    /** The version a pinned ref names, decoded; null when it does not decode. */
    private Fact pinned(Ref r) {
        try {
            return FactCodec.decodeFact(parent.read(ObjectId.fromString(r.blob().hex())), r.id().value(), repo.vault());
        } catch (FormatException | RuntimeException e) {
            return null;
        }
    }

    /** Writes fact {@code f}'s canonical file at {@code path}, sealed with its data key when this transaction seals it. */
    void putFact(String path, Fact f) {
        if (toSeal.contains(f.id())) {
            f = dev.palimpsest.internal.yaml.Sealing.seal(f.withSeal(null), repo.vault().keyOrCreate(f.id(), createdKeys));
        }
        files.put(path, FactCodec.encode(f));
        facts.put(path, f);
    }

    /** The store config at the parent. */
    StoreConfig config() {
        if (config == null) {
            try {
                config = FactCodec.decodeConfig(parent.readPath(StorePaths.CONFIG), StorePaths.CONFIG);
            } catch (FormatException | RuntimeException e) {
                config = StoreConfig.current();
            }
        }
        return config;
    }

    /** Decides whether an asserted fact is sealed; false (with a violation) when the store cannot seal what it asks. */
    private boolean sealing(Operation.Assert a) {
        String mode = config().encryptMode();
        boolean file = "file".equals(a.kind().value());
        if ((a.sensitive() || a.retainUntil() != null) && (StoreConfig.ENCRYPT_NONE.equals(mode) || file)) {
            violation(Rule.SEALING_OFF, "fact " + a.id(), (file ? "produced file records are never sealed"
                    : "this store's config says encrypt: none") + "; a sensitive fact or a retention deadline needs "
                    + "sealed content");
            return false;
        }
        if (!file && (a.sensitive() || a.retainUntil() != null || StoreConfig.ENCRYPT_ALL.equals(mode)
                || config().retentionOf(a.kind()) != null)) {
            toSeal.add(a.id());
        }
        return true;
    }

    /** The fact's deadline: the one asked for, else now plus its kind's retention default, else null. */
    private java.time.Instant retainUntil(Operation.Assert a) {
        if (a.retainUntil() != null) {
            return a.retainUntil().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        }
        java.time.Duration d = "file".equals(a.kind().value()) ? null : config().retentionOf(a.kind());
        return d == null ? null : java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).plus(d);
    }

    /**
     * Sensitivity follows provenance: a fact that cites, quotes or rests on sealed content ({@code
     * sealedCited}, or sealed receipt members) is sealed, unless the writer asked for plaintext, which
     * the fact then records. Null (with a violation) when plaintext is asked of a fact sealed for
     * another reason (sensitive, a deadline, {@code encrypt: all}, its kind's retention).
     */
    private Fact inheritSeal(Operation.Assert a, Fact f, Set<FactId> sealedCited) {
        if ("file".equals(a.kind().value())) {
            return f;
        }
        if (a.plaintext()) {
            if (toSeal.contains(f.id())) {
                violation(Rule.INVALID_FACT, "fact " + f.id(), "is sealed (written sensitive, with a retention "
                        + "deadline, by its kind's retention or under encrypt: all); plaintext only waives the seal a "
                        + "fact inherits from the sealed content it cites");
                return null;
            }
            return f.withPlaintext(true);
        }
        if (!sealedCited.isEmpty() || derivedFromSealed(f)) {
            toSeal.add(f.id());
        }
        return f;
    }

    /**
     * True when {@code f} is a derived artifact whose refs or receipts name a sealed fact: one this
     * transaction seals, one this store's vault holds a key of, or a receipt member whose version the
     * gate pins is sealed (read from git, so a replica without the key decides as the audit does).
     */
    private boolean derivedFromSealed(Fact f) {
        if (!dev.palimpsest.internal.forget.Forgetting.derivedKind(f.kind().value())) {
            return false;
        }
        Set<FactId> named = new HashSet<>();
        f.refs().forEach(r -> named.add(r.id()));
        List<dev.palimpsest.model.Pin> pins = new ArrayList<>();
        for (dev.palimpsest.model.Receipt r : dev.palimpsest.internal.rules.GroundingRules.receipts(f.grounding())) {
            r.bundles().forEach(pins::addAll);
        }
        pins.forEach(p -> named.add(p.id()));
        for (FactId m : named) {
            if (toSeal.contains(m) || repo.vault().key(m) != null) {
                return true;
            }
        }
        for (dev.palimpsest.model.Pin p : pins) {
            Optional<FactVersion> v = rules.memberVersion(p);
            if (v.isPresent() && dev.palimpsest.internal.rules.SealRules.sealedVersion(parent, v.get())) {
                return true;
            }
        }
        return false;
    }

    /** Checks the writing actor's change of {@code agents_may} from {@code before} to {@code after}; false (reported) when its key may not. */
    boolean agentsMayChange(StoreConfig before, StoreConfig after) {
        return governance.agentsMay(actor, before, after);
    }

    /** True when {@code id} names a commit of the store. */
    boolean isCommit(ObjectId id) {
        try {
            return repo.repository().getObjectDatabase().has(id)
                    && parent.reader().open(id).getType() == Constants.OBJ_COMMIT;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    void notLive(FactId id, String verb) {
        violations.add(RetractRules.notLive(id, verb, versions));
    }

    Fact decode(Versions.Located loc) {
        try {
            return FactCodec.decodeFact(parent.read(loc.blob()), loc.path(), repo.vault());
        } catch (FormatException e) {
            violation(Rule.CORRUPT_FILE, loc.path(), e.getMessage());
            return null;
        }
    }

    private Fact fact(FactId id, java.util.function.Supplier<Fact> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            violation(invalid(e), "fact " + id, e.getMessage());
            return null;
        }
    }

    /**
     * The rule of a fact that cannot be built: {@code invalid-text} for unstorable text, the
     * validity's rule for a validity that cannot be stored, else {@code invalid-fact}.
     */
    static Rule invalid(IllegalArgumentException e) {
        if (e instanceof dev.palimpsest.model.ValidTimeException v) {
            return v.rule();
        }
        return e instanceof dev.palimpsest.model.InvalidTextException ? Rule.INVALID_TEXT : Rule.INVALID_FACT;
    }

    int violationCount() {
        return violations.size();
    }

    void violation(Rule rule, String subject, String msg) {
        violations.add(new Violation(rule, subject, msg));
    }
}
