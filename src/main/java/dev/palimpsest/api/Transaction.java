package dev.palimpsest.api;

import dev.palimpsest.internal.crypto.CommitSigner;
import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Collects operations that land together as exactly one signed commit by one actor, or not at all.
 *
 * <p>Operations are checked by the reference gate only at {@link #commit()}, against the commit the
 * write lands on; every violation is reported at once, so an unknown or retracted id named by an
 * operation is a {@link RejectedException} then, never an exception while collecting. A transaction
 * commits at most once.
 *
 * <p>Not thread-safe: use one per thread. Arguments must not be null ({@link NullPointerException}
 * naming the argument).
 */
public final class Transaction {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Writer writer;
    private final ActorName actor;
    private final CommitSigner signer;
    private final List<Operation> ops = new ArrayList<>();
    private boolean committed;

    Transaction(Writer writer, ActorName actor, CommitSigner signer) {
        this.writer = writer;
        this.actor = actor;
        this.signer = signer;
    }

    /**
     * Asserts a new fact and returns its id: the spec's, or a minted {@code <kind>-<12 hex>}. The
     * spec's refs are pinned when the transaction commits; its grounding (a triple, receipts) is
     * checked by the gate as for an ingested batch. Receipt members are named unpinned
     * ({@link dev.palimpsest.model.Pin#of}); the gate pins them at commit, or leaves a member
     * written in this transaction unpinned.
     */
    public FactId assertFact(FactSpec spec) {
        Objects.requireNonNull(spec, "spec");
        FactId fid = idOf(spec);
        ops.add(new Operation.Assert(fid, spec.kind(), spec.body(), spec.confidence(), spec.refs(), false,
                spec.grounding(), spec.run(), spec.sensitive(), spec.retainUntil(), spec.plaintext(), spec.validFrom(),
                spec.validUntil()));
        return fid;
    }

    /**
     * Supersedes {@code old} by addition: asserts the spec's fact with a {@code supersedes} ref to
     * {@code old} before its own refs. The old fact stays live, a correctly dated snapshot. Returns
     * the new fact's id.
     */
    public FactId supersede(FactId old, FactSpec spec) {
        Objects.requireNonNull(old, "old");
        Objects.requireNonNull(spec, "spec");
        List<RefSpec> all = new ArrayList<>(spec.refs());
        all.add(0, RefSpec.of(old, RefRole.SUPERSEDES));
        return assertFact(spec.refs(all));
    }

    /**
     * Consolidates duplicates atomically: asserts the spec's fact with a {@code merged_from} ref to
     * each input (before the spec's own refs) and the evidence the inputs' lineage held at the
     * parent, then retracts every input, all in one commit. Returns the merged fact's id.
     *
     * @throws IllegalArgumentException with fewer than two inputs, or an input named twice
     */
    public FactId merge(List<FactId> inputs, FactSpec spec) {
        Objects.requireNonNull(inputs, "inputs");
        Objects.requireNonNull(spec, "spec");
        List<FactId> distinct = inputs.stream().distinct().toList();
        if (distinct.size() < 2 || distinct.size() != inputs.size()) {
            throw new IllegalArgumentException("a merge needs at least two distinct inputs, got " + inputs);
        }
        FactId fid = idOf(spec);
        List<RefSpec> refs = new ArrayList<>();
        distinct.forEach(in -> refs.add(RefSpec.of(in, RefRole.MERGED_FROM)));
        refs.addAll(spec.refs());
        ops.add(new Operation.Assert(fid, spec.kind(), spec.body(), spec.confidence(), refs, true, spec.grounding(),
                spec.run(), spec.sensitive(), spec.retainUntil(), spec.plaintext(), spec.validFrom(), spec.validUntil()));
        for (FactId in : distinct) {
            ops.add(new Operation.Retract(in, "merged into " + fid));
        }
        return fid;
    }

    /**
     * Subsumption: asserts the spec's fact citing {@code hypothesis} with role {@code subsumes}
     * (after the spec's own refs) and retracts the hypothesis in the same commit, so the trail to it
     * survives. Returns the new fact's id.
     */
    public FactId subsume(FactId hypothesis, FactSpec spec) {
        Objects.requireNonNull(hypothesis, "hypothesis");
        Objects.requireNonNull(spec, "spec");
        List<RefSpec> all = new ArrayList<>(spec.refs());
        all.add(RefSpec.of(hypothesis, RefRole.SUBSUMES));
        FactId fid = assertFact(spec.refs(all));
        ops.add(new Operation.Retract(hypothesis, "subsumed by " + fid));
        return fid;
    }

    /** Writes a new version of a live fact with a new body and additional refs (possibly none). */
    public Transaction revise(FactId id, String body, List<RefSpec> addRefs) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(body, "body");
        ops.add(new Operation.Revise(id, body, null, List.copyOf(addRefs)));
        return this;
    }

    /**
     * Writes a new version of a live fact: a new body when {@code body} is present (else the
     * current one), the refs {@code addRefs} added, and its validity changed where {@code validFrom}
     * or {@code validUntil} is present (else kept; {@link java.time.Instant#MIN} reopens the start,
     * {@link java.time.Instant#MAX} the end). The gate checks the validity ({@code
     * valid-time-malformed}, {@code valid-time-inverted}) and refuses a revision that changes nothing.
     */
    public Transaction revise(FactId id, Optional<String> body, List<RefSpec> addRefs,
            Optional<java.time.Instant> validFrom, Optional<java.time.Instant> validUntil) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(addRefs, "addRefs");
        Objects.requireNonNull(validFrom, "validFrom");
        Objects.requireNonNull(validUntil, "validUntil");
        ops.add(new Operation.Revise(id, body.orElse(null), null, List.copyOf(addRefs), validFrom.orElse(null),
                validUntil.orElse(null)));
        return this;
    }

    /** Writes a new version of a live fact that keeps its body and adds refs. */
    public Transaction addRefs(FactId id, List<RefSpec> refs) {
        Objects.requireNonNull(id, "id");
        ops.add(new Operation.Revise(id, null, null, List.copyOf(refs)));
        return this;
    }

    /**
     * Writes a new version of a live artifact with the same body and a new grounding; pinned members
     * must be carried over from the previous version, unpinned ones are pinned at commit.
     */
    public Transaction reground(FactId id, Grounding grounding) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(grounding, "grounding");
        ops.add(new Operation.Reground(id, null, grounding, null));
        return this;
    }

    /**
     * Writes a new version of a live merge, edge or summary whose receipt is {@code receipt} (a
     * merge's or edge's, or a summary's one flat receipt, recorded {@code flat: true}), keeping its
     * body and triple. Members are named unpinned ({@link dev.palimpsest.model.Pin#of}) or as read at
     * a commit ({@link dev.palimpsest.model.Pin#asOf}) and pinned by the gate at commit; a member the
     * previous version pinned may be given with that pin. A fact of another kind is rule
     * {@code not-an-artifact}.
     */
    public Transaction revise(FactId id, dev.palimpsest.model.Receipt receipt) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(receipt, "receipt");
        return reviseReceipts(id, null, receipt, List.of());
    }

    /** As {@link #revise(FactId, dev.palimpsest.model.Receipt)}, with a new body. */
    public Transaction revise(FactId id, String body, dev.palimpsest.model.Receipt receipt) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(receipt, "receipt");
        return reviseReceipts(id, body, receipt, List.of());
    }

    /**
     * Writes a new version of a live summary with these sentences, each with its own receipt, as
     * its sentence receipts; its body becomes the sentences' texts joined by a space. Members are
     * named and pinned as for {@link #revise(FactId, dev.palimpsest.model.Receipt)}.
     *
     * @throws IllegalArgumentException {@code sentences} is empty
     */
    public Transaction revise(FactId id, List<dev.palimpsest.model.Sentence> sentences) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(sentences, "sentences");
        if (sentences.isEmpty()) {
            throw new IllegalArgumentException("a sentence summary needs at least one sentence");
        }
        String body = String.join(" ", sentences.stream().map(dev.palimpsest.model.Sentence::text).toList());
        return reviseReceipts(id, body, null, sentences);
    }

    private Transaction reviseReceipts(FactId id, String body, dev.palimpsest.model.Receipt receipt,
            List<dev.palimpsest.model.Sentence> sentences) {
        ops.add(new Operation.Reground(id, body, new Grounding(null, null, null, receipt, sentences, false), null,
                true));
        return this;
    }

    /** Retracts a live fact: asserts it is false, removing its file and recording why. */
    public Transaction retract(FactId id, String reason) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(reason, "reason");
        ops.add(new Operation.Retract(id, reason));
        return this;
    }

    /**
     * Trusts {@code armoredPublicKey} (a v4 Ed25519 OpenPGP public key) as the key of the new actor
     * {@code name} with {@code role}.
     */
    public Transaction addKey(ActorName name, String armoredPublicKey, KeyRole role) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(armoredPublicKey, "armoredPublicKey");
        Objects.requireNonNull(role, "role");
        ops.add(new Operation.KeyAdd(name, armoredPublicKey, role.value()));
        return this;
    }

    /** Revokes the key of {@code name}: it can sign nothing after this commit; the last key cannot be revoked. */
    public Transaction revokeKey(ActorName name) {
        Objects.requireNonNull(name, "name");
        ops.add(new Operation.KeyRevoke(name));
        return this;
    }

    /** The number of operations collected so far. */
    public int size() {
        return ops.size();
    }

    /**
     * Lands every operation as one signed commit on {@code main}; {@link CommitResult#id()} is the
     * commit.
     *
     * @throws RejectedException the gate found violations (all are listed); nothing was written
     * @throws ConflictException other writers kept moving {@code main} through every retry
     * @throws IllegalStateException when the transaction was committed before
     */
    public CommitResult commit() throws RejectedException, ConflictException {
        if (committed) {
            throw new IllegalStateException("transaction already committed");
        }
        committed = true;
        return writer.write(actor, signer, List.copyOf(ops));
    }

    void add(Operation op) {
        ops.add(op);
    }

    private static FactId idOf(FactSpec spec) {
        return spec.id() != null ? spec.id() : mint(spec.kind());
    }

    private static FactId mint(Kind kind) {
        byte[] r = new byte[6];
        RANDOM.nextBytes(r);
        return FactId.of(kind.value() + "-" + HexFormat.of().formatHex(r));
    }
}
