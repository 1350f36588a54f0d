package dev.palimpsest.internal.write;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.rules.GroundingRules;
import dev.palimpsest.internal.rules.ReceiptCycles;
import dev.palimpsest.internal.rules.RuleSink;
import dev.palimpsest.internal.query.Versions;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.StoreConfig;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.Sentence;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The receipt rules of the reference gate, checked through the rule classes the audit shares
 * ({@link GroundingRules}, {@link ReceiptCycles}): an assertion cites one existing source (ref role
 * {@code source}) and states a triple; a merge, edge or summary carries a receipt (a summary: one
 * per sentence, or one flat receipt with {@code flat: true}); every bundle member exists at the
 * parent (or is written in the same transaction) and is not the artifact itself; receipt
 * dependencies among artifacts have no cycle. Pins members exactly like refs, once all operations
 * of the transaction are known. Not thread-safe (one per gate).
 */
final class ReceiptRules {
    static final String CONFIG_TRAILER = "Palimpsest-Config";

    private record Deferred(Fact fact, String path, Set<Pin> carried, ObjectId carriedAt, boolean readd) {}

    private final ReferenceGate gate;
    private final Map<FactId, Deferred> deferred = new LinkedHashMap<>();
    private final Map<FactId, Optional<FactVersion>> existing = new HashMap<>();
    private final Map<FactId, Receipt[]> existingReceipts = new HashMap<>();
    private boolean anyReadd;

    ReceiptRules(ReferenceGate gate) {
        this.gate = gate;
    }

    /** Checks a new fact's grounding against its kind; false (with violations) when it breaks a rule. */
    boolean asserted(Fact f, String path) {
        if (!kindRules(f)) {
            return false;
        }
        if (GroundingRules.hasReceipts(f.grounding())) {
            deferred.put(f.id(), new Deferred(f, path, Set.of(), null, gate.versions.existsAt(f.id()).isPresent()));
        }
        return true;
    }

    void reground(Operation.Reground r) {
        FactId id = r.id();
        if (!gate.touched.add(id)) {
            gate.violation(Rule.DUPLICATE_OPERATION, "fact " + id, "is written more than once in one transaction");
            return;
        }
        Versions.Located loc = gate.versions.locate(id);
        if (loc == null) {
            gate.notLive(id, "revise");
            return;
        }
        Fact current = gate.decode(loc);
        if (current == null) {
            return;
        }
        Fact next;
        try {
            if (current.contentUnavailable()) {
                gate.violation(Rule.FORGOTTEN, "fact " + id, "its sealed content is unavailable (no data key)");
                return;
            }
            Grounding g = r.grounding();
            if (r.receiptsOnly()) {
                Grounding was = current.grounding();
                g = new Grounding(was.subject(), was.predicate(), was.object(), g.receipt(), g.sentences(),
                        Kind.SUMMARY.equals(current.kind()) && g.receipt() != null, was.review());
            }
            next = new Fact(id, current.kind(), r.body() == null ? current.body() : r.body(), current.confidence(),
                    current.refs(), current.pooled(), g).withRetainUntil(current.retainUntil())
                    .withPlaintext(current.plaintext()).withValidity(current.validity());
            if (current.seal() != null) {
                gate.toSeal.add(id);
            }
        } catch (IllegalArgumentException e) {
            gate.violation(ReferenceGate.invalid(e), "fact " + id, e.getMessage());
            return;
        }
        if (!current.kind().isArtifact()) {
            gate.violation(Rule.NOT_AN_ARTIFACT, "fact " + id, "only merges, edges and summaries carry receipts");
            return;
        }
        if (!kindRules(next)) {
            return;
        }
        Set<Pin> carried = new HashSet<>();
        forEachBundle(current.grounding(), b -> carried.addAll(b));
        FactVersion previous = gate.versions.existsAt(id).orElseThrow();
        deferred.put(id, new Deferred(next, loc.path(), carried, ObjectId.fromString(previous.commit().hex()), false));
        // finish() writes its file once the members are pinned
        gate.written.add(id);
        gate.message.add("revise", CommitMessage.FACT, id.value(), r.reason() != null ? r.reason()
                : gate.toSeal.contains(id) ? null : next.body());
    }

    void configure(Operation.Configure c) {
        byte[] bytes = gate.parent.readPath(StorePaths.CONFIG);
        StoreConfig current;
        try {
            current = FactCodec.decodeConfig(bytes, StorePaths.CONFIG);
        } catch (FormatException e) {
            gate.violation(Rule.CORRUPT_FILE, StorePaths.CONFIG, e.getMessage());
            return;
        }
        StoreConfig next;
        try {
            next = current.with(c.policy(), c.ontology()).withMultiValued(c.multiValued())
                    .withLayerTrust(c.layerTrust());
            if (c.agentsMay() != null) {
                next = next.withAgentsMay(c.agentsMay());
            }
        } catch (IllegalArgumentException e) {
            gate.violation(Rule.INVALID_CONFIG, StorePaths.CONFIG, e.getMessage());
            return;
        }
        if (!gate.agentsMayChange(current, next)) {
            return;
        }
        if (!next.equals(current) && !gate.files.containsKey(StorePaths.CONFIG)) {
            gate.files.put(StorePaths.CONFIG, FactCodec.encode(next));
            gate.message.add("configure", CONFIG_TRAILER, StorePaths.CONFIG, null);
        }
    }

    /** Pins every deferred receipt now that the whole transaction is known, then rejects cycles. */
    void finish() {
        for (Deferred d : new ArrayList<>(deferred.values())) {
            Fact f = d.fact();
            Grounding g = f.grounding();
            Receipt r = g.receipt() == null ? null : pin(f.id(), g.receipt(), d, "receipt");
            List<Sentence> ss = new ArrayList<>();
            for (int i = 0; i < g.sentences().size(); i++) {
                Sentence s = g.sentences().get(i);
                Receipt sr = pin(f.id(), s.receipt(), d, "sentence #" + (i + 1) + " receipt");
                ss.add(sr == null ? s : new Sentence(s.text(), sr));
            }
            Fact pinned = new Fact(f.id(), f.kind(), f.body(), f.confidence(), f.refs(), f.pooled(),
                    g.withReceipts(r == null ? g.receipt() : r, ss)).withRetainUntil(f.retainUntil())
                    .withPlaintext(f.plaintext()).withValidity(f.validity());
            deferred.put(f.id(), new Deferred(pinned, d.path(), d.carried(), d.carriedAt(), d.readd()));
            gate.pending.put(f.id(), pinned);
            gate.putFact(d.path(), pinned);
        }
        rejectCycles();
    }

    private Receipt pin(FactId self, Receipt r, Deferred d, String what) {
        Set<Pin> carried = d.carried();
        List<List<Pin>> out = new ArrayList<>();
        boolean ok = true;
        for (List<Pin> bundle : r.bundles()) {
            List<Pin> pins = new ArrayList<>();
            for (Pin p : bundle) {
                String subject = "receipt " + self + " -> " + p.id();
                RuleSink sink = (rule, msg) -> gate.violation(rule, subject, msg);
                if (!GroundingRules.notSelf(self, p.id(), what, sink)) {
                    ok = false;
                } else if (p.requested()) {
                    Optional<FactVersion> v = readAt(p, sink);
                    if (v == null) {
                        ok = false;
                    } else if (!GroundingRules.member(self, p.id(), v.isPresent(), what, p.commit().hex(), sink)) {
                        ok = false;
                    } else {
                        pins.add(new Pin(p.id(), v.get().commit(), v.get().blob()));
                    }
                } else if (p.commit() != null) {
                    if (!carried.contains(p)) {
                        gate.violation(Rule.PIN_NOT_CARRIED, subject, "a pinned member must be carried over from the "
                                + "previous version; name the member unpinned and the gate pins it");
                        ok = false;
                    }
                    pins.add(p);
                } else if (gate.pending.containsKey(p.id())) {
                    pins.add(p);
                } else if (d.carriedAt() != null && carried.contains(p)) {
                    FactState st = gate.index.state(p.id(), d.carriedAt());
                    pins.add(st == null ? p : new Pin(p.id(), dev.palimpsest.model.CommitId.of(st.versionCommit().name()),
                            dev.palimpsest.model.BlobId.of(st.blob().name())));
                } else {
                    Optional<FactVersion> v = existing.computeIfAbsent(p.id(), gate.versions::existsAt);
                    if (!GroundingRules.member(self, p.id(), v.isPresent(), what, gate.parent.commit().name(), sink)) {
                        ok = false;
                    } else {
                        pins.add(new Pin(p.id(), v.get().commit(), v.get().blob()));
                    }
                }
            }
            out.add(pins);
        }
        return ok ? new Receipt(out) : null;
    }

    /**
     * The version of member {@code p}, {@linkplain Pin#asOf requested as read at} its commit: the
     * member's last navigable version at or before that commit (empty when it has none there), or
     * null when the commit is unknown or not the parent or one of its ancestors (reported to {@code sink}).
     */
    private Optional<FactVersion> readAt(Pin p, RuleSink sink) {
        ObjectId at = ObjectId.fromString(p.commit().hex());
        if (!gate.isCommit(at)) {
            sink.report(Rule.PIN_UNKNOWN, "commit " + at.name() + " does not exist in this store");
            return null;
        }
        if (!dev.palimpsest.internal.git.History.isAncestorOrSelf(gate.repo, at, gate.parent.commit())) {
            sink.report(Rule.PIN_NOT_ANCESTOR, "commit " + at.name() + " is not an ancestor of the commit the write"
                    + " lands on (" + gate.parent.commit().name() + ")");
            return null;
        }
        if (at.equals(gate.parent.commit())) {
            return existing.computeIfAbsent(p.id(), gate.versions::existsAt);
        }
        try (dev.palimpsest.internal.git.Snapshot snap = dev.palimpsest.internal.git.Snapshot.of(gate.repo, at)) {
            return new Versions(gate.index, snap).existsAt(p.id());
        }
    }

    /**
     * The version member {@code p} of a new artifact will be pinned to, as far as it is known before
     * the transaction is complete: its pin, its version read at the requested commit, or its version
     * at the parent; empty for a member written in this transaction or one that breaks a rule.
     */
    Optional<FactVersion> memberVersion(Pin p) {
        if (p.requested()) {
            Optional<FactVersion> v = readAt(p, (rule, msg) -> { });
            return v == null ? Optional.empty() : v;
        }
        if (p.commit() != null) {
            return Optional.of(new FactVersion(p.id(), p.commit(), p.blob()));
        }
        if (gate.pending.containsKey(p.id())) {
            return Optional.empty();
        }
        return existing.computeIfAbsent(p.id(), gate.versions::existsAt);
    }

    private boolean kindRules(Fact f) {
        return GroundingRules.check(f, this::sourceKind, (rule, msg) -> gate.violation(rule, "fact " + f.id(), msg));
    }

    private Kind sourceKind(Ref src) {
        if (src.commit() == null) {
            Fact same = gate.pending.get(src.id());
            return same == null ? null : same.kind();
        }
        FactState st = gate.index.state(src.id(), ObjectId.fromString(src.commit().hex()));
        return st == null ? null : Kind.of(st.kind());
    }

    private void rejectCycles() {
        anyReadd = deferred.values().stream().anyMatch(Deferred::readd);
        ReceiptCycles.check(deferred.keySet(), id -> List.of(receiptsOf(id)),
                start -> (rule, msg) -> gate.violation(rule, "fact " + start, msg));
    }

    /**
     * The receipts an artifact depends through: batch artifacts' own; existing artifacts' only when
     * the batch re-adds some id (only then can an older receipt name a batch artifact).
     */
    private Receipt[] receiptsOf(FactId id) {
        Deferred d = deferred.get(id);
        if (d != null) {
            return receipts(d.fact().grounding());
        }
        if (!anyReadd) {
            return new Receipt[0];
        }
        return existingReceipts.computeIfAbsent(id, x -> {
            Versions.Located loc = gate.versions.locate(x);
            Fact f = loc == null ? null : gate.decode(loc);
            return f == null ? new Receipt[0] : receipts(f.grounding());
        });
    }

    private static Receipt[] receipts(Grounding g) {
        return GroundingRules.receipts(g).toArray(new Receipt[0]);
    }

    private static void forEachBundle(Grounding g, java.util.function.Consumer<List<Pin>> each) {
        for (Receipt r : receipts(g)) {
            r.bundles().forEach(each);
        }
    }
}
