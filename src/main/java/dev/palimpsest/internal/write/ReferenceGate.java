package dev.palimpsest.internal.write;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.internal.crypto.TrustedKey;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.History;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.query.Lineage;
import dev.palimpsest.internal.query.Versions;
import dev.palimpsest.internal.rules.RefRules;
import dev.palimpsest.internal.rules.RuleSink;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.internal.yaml.StoreConfig;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefSpec;
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
    final CommitMessage message = new CommitMessage();
    private final KeyRules keys;
    private final ReceiptRules rules = new ReceiptRules(this);
    private final ClaimRules claims = new ClaimRules(this);

    /** {@code parent} is null only for the genesis commit. */
    ReferenceGate(GitRepo repo, PredicateIndex index, Snapshot parent) {
        this.repo = repo;
        this.index = index;
        this.parent = parent;
        this.versions = parent == null ? null : new Versions(index, parent);
        this.keys = new KeyRules(parent, files, message, violations);
    }

    Plan check(ActorName actor, List<Operation> ops) throws RejectedException {
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
        return new Plan(files, facts, written, retracted, message.build(actor));
    }

    private void init(Operation.Init i) {
        if (parent != null) {
            violation(Rule.ALREADY_INITIALISED, "store", "the store is already initialised");
            return;
        }
        files.put(StorePaths.CONFIG, FactCodec.encode(StoreConfig.current()));
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
        List<Ref> refs = resolveRefs(id, a.body(), a.refs(), List.of());
        java.util.SortedMap<FactId, Double> pooled = null;
        if (a.poolEvidence()) {
            List<FactId> inputs = refs.stream().filter(r -> RefRole.MERGED_FROM.equals(r.role())).map(Ref::id).toList();
            pooled = Lineage.mass(repo, index, inputs, parent.commit()).bySource();
        }
        java.util.SortedMap<FactId, Double> pool = pooled;
        Fact full = fact(id, () -> new Fact(id, a.kind(), a.body(), a.confidence(), refs, pool, a.grounding(),
                a.run()));
        if (full == null || !claims.claim(a, full) | !rules.asserted(full, StorePaths.factPath(full.kind(), id))) {
            return;
        }
        pending.put(id, full);
        if (rules.isDeferred(id)) {
            files.put(StorePaths.factPath(full.kind(), id), new byte[0]);
        } else {
            putFact(StorePaths.factPath(full.kind(), id), full);
        }
        files.put(StorePaths.retractionPath(id), null);
        written.add(id);
        message.add("assert", CommitMessage.FACT, id.value(), full.body());
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
        claims.supersessions(id, r.addRefs().stream().filter(s -> current.refs().stream()
                .noneMatch(c -> c.id().equals(s.target()) && c.role().equals(s.role()))).toList());
        String body = r.body() == null ? current.body() : r.body();
        Double confidence = r.confidence() == null ? current.confidence() : r.confidence();
        List<Ref> added = resolveRefs(id, body, r.addRefs(), current.refs());
        List<Ref> unchanged = new ArrayList<>(current.refs());
        unchanged.addAll(added);
        Fact same = fact(id, () -> new Fact(id, current.kind(), body, confidence, unchanged, current.pooled(),
                current.grounding(), current.run()));
        if (same == null) {
            return;
        }
        if (new ObjectInserter.Formatter().idFor(Constants.OBJ_BLOB, FactCodec.encode(same)).equals(loc.blob())) {
            violation(Rule.NO_CHANGE, subject, "the revision changes nothing");
            return;
        }
        List<Ref> refs = new ArrayList<>(pinCarried(id, current.refs()));
        refs.addAll(added);
        Fact next = new Fact(id, current.kind(), body, confidence, refs, current.pooled(), current.grounding(),
                current.run());
        putFact(loc.path(), next);
        written.add(id);
        message.add("revise", CommitMessage.FACT, id.value(), next.body());
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
                    ? new Ref(r.id(), r.role(), target.get().commit(), target.get().blob(), r.quote())
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
        files.put(loc.path(), null);
        files.put(StorePaths.retractionPathOf(loc.path()), FactCodec.encode(new RetractionRecord(version, r.reason(),
                actor)));
        retracted.add(id);
        message.add("retract", CommitMessage.FACT, id.value(), r.reason());
    }

    /** Writes fact {@code f}'s canonical file at {@code path}. */
    void putFact(String path, Fact f) {
        files.put(path, FactCodec.encode(f));
        facts.put(path, f);
    }

    void notLive(FactId id, String verb) {
        violations.add(RetractRules.notLive(id, verb, versions));
    }

    private List<Ref> resolveRefs(FactId referrer, String body, List<RefSpec> specs, List<Ref> existing) {
        List<Ref> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Ref e : existing) {
            seen.add(RefRules.key(e.id(), e.role()));
        }
        for (RefSpec s : specs) {
            String subject = "ref " + referrer + " -> " + s.target();
            RuleSink sink = (rule, msg) -> violation(rule, subject, msg);
            if (!RefRules.identity(referrer, s.target(), s.role(), seen, sink)) {
                continue;
            }
            Ref ref = resolve(subject, s, sink);
            if (ref != null) {
                out.add(ref);
            }
        }
        return out;
    }

    private Ref resolve(String subject, RefSpec s, RuleSink sink) {
        Fact same = pending.get(s.target());
        if (s.at() == null && same != null) {
            return RefRules.subsumes(s.role(), s.target(), same.kind(), sink)
                    && RefRules.quote(s.quote(), s.target(), same.body(), sink)
                    ? new Ref(s.target(), s.role(), null, null, s.quote()) : null;
        }
        ObjectId at = parent.commit();
        if (s.at() != null) {
            at = ObjectId.fromString(s.at().hex());
            if (!isCommit(at)) {
                violation(Rule.PIN_UNKNOWN, subject, "commit " + s.at().hex() + " does not exist in this store");
                return null;
            }
            if (!History.isAncestorOrSelf(repo, at, parent.commit())) {
                violation(Rule.PIN_NOT_ANCESTOR, subject, "commit " + s.at().hex()
                        + " is not an ancestor of the commit the write lands on (" + parent.commit().name() + ")");
                return null;
            }
        }
        Optional<FactVersion> version;
        Snapshot snap = at.equals(parent.commit()) ? parent : Snapshot.of(repo, at);
        try {
            version = (snap == parent ? versions : new Versions(index, snap)).existsAt(s.target());
            if (version.isEmpty()) {
                violation(Rule.REF_TARGET_MISSING, subject, s.target() + " does not exist at " + at.name());
                return null;
            }
            if (RefRole.SUBSUMES.equals(s.role()) || s.quote() != null) {
                if (!RefRules.quoteLength(s.quote(), sink)) {
                    return null;
                }
                Fact target = decodeBlob(snap, version.get());
                if (target == null || !RefRules.subsumes(s.role(), s.target(), target.kind(), sink)
                        || !RefRules.quote(s.quote(), s.target(), target.body(), sink)) {
                    return null;
                }
            }
        } finally {
            if (snap != parent) {
                snap.close();
            }
        }
        return new Ref(s.target(), s.role(), version.get().commit(), version.get().blob(), s.quote());
    }

    private boolean isCommit(ObjectId id) {
        try {
            return repo.repository().getObjectDatabase().has(id)
                    && parent.reader().open(id).getType() == Constants.OBJ_COMMIT;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private Fact decodeBlob(Snapshot snap, FactVersion v) {
        try {
            return FactCodec.decodeFact(snap.read(ObjectId.fromString(v.blob().hex())), v.id().value());
        } catch (FormatException e) {
            violation(Rule.CORRUPT_TARGET, "fact " + v.id(), e.getMessage());
            return null;
        }
    }

    Fact decode(Versions.Located loc) {
        try {
            return FactCodec.decodeFact(parent.read(loc.blob()), loc.path());
        } catch (FormatException e) {
            violation(Rule.CORRUPT_FILE, loc.path(), e.getMessage());
            return null;
        }
    }

    private Fact fact(FactId id, java.util.function.Supplier<Fact> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            violation(Rule.INVALID_FACT, "fact " + id, e.getMessage());
            return null;
        }
    }

    int violationCount() {
        return violations.size();
    }

    void violation(Rule rule, String subject, String msg) {
        violations.add(new Violation(rule, subject, msg));
    }
}
