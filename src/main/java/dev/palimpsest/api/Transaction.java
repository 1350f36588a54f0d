package dev.palimpsest.api;

import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.internal.crypto.CommitSigner;
import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * Collects operations that land together as exactly one signed commit by one actor, or not at all.
 *
 * <p>Operations are checked by the reference gate only at {@link #commit()}, against the commit the
 * write lands on; every violation is reported at once. A transaction commits at most once. Not
 * thread-safe: use one per thread. Arguments must not be null unless documented.
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
     * Asserts a new fact and returns its id; {@code id} null mints one ({@code <kind>-<12 hex>}).
     * {@code confidence} may be null; {@code refs} are pinned when the transaction commits.
     */
    public FactId assertFact(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs) {
        Objects.requireNonNull(kind, "kind");
        FactId fid = id != null ? id : mint(kind);
        ops.add(new Operation.Assert(fid, kind, body, confidence, refs));
        return fid;
    }

    /** Asserts a new fact with a minted id. */
    public FactId assertFact(Kind kind, String body, RefSpec... refs) {
        return assertFact(null, kind, body, null, Arrays.asList(refs));
    }

    /**
     * Supersedes {@code old} by addition: asserts a new fact with a {@code supersedes} ref to it.
     * The old fact stays live, a correctly dated snapshot. Returns the new fact's id (minted when
     * {@code id} is null).
     */
    public FactId supersede(FactId old, FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs) {
        Objects.requireNonNull(old, "old");
        List<RefSpec> all = new ArrayList<>(refs == null ? List.of() : refs);
        all.add(0, new RefSpec(old, null, "supersedes", null));
        return assertFact(id, kind, body, confidence, all);
    }

    /**
     * Consolidates duplicates atomically: asserts the merged fact with a {@code merged_from} ref to
     * each input and the evidence the inputs' lineage held at the parent, then retracts every input,
     * all in one commit.
     *
     * @throws IllegalArgumentException with fewer than two distinct inputs
     */
    public FactId merge(List<FactId> inputs, FactId id, Kind kind, String body, Double confidence) {
        List<FactId> distinct = inputs.stream().distinct().toList();
        if (distinct.size() < 2 || distinct.size() != inputs.size()) {
            throw new IllegalArgumentException("a merge needs at least two distinct inputs, got " + inputs);
        }
        FactId fid = id != null ? id : mint(kind);
        List<RefSpec> refs = distinct.stream().map(in -> new RefSpec(in, null, "merged_from", null)).toList();
        ops.add(new Operation.Assert(fid, kind, body, confidence, refs, true));
        for (FactId in : distinct) {
            ops.add(new Operation.Retract(in, "merged into " + fid));
        }
        return fid;
    }

    /**
     * Subsumption: asserts a fact that cites {@code hypothesis} with role {@code subsumes} and
     * retracts the hypothesis in the same commit, so the trail to it survives.
     */
    public FactId subsume(FactId hypothesis, FactId id, Kind kind, String body, Double confidence,
            List<RefSpec> refs) {
        List<RefSpec> all = new ArrayList<>(refs == null ? List.of() : refs);
        all.add(new RefSpec(hypothesis, null, "subsumes", null));
        FactId fid = assertFact(id, kind, body, confidence, all);
        ops.add(new Operation.Retract(hypothesis, "subsumed by " + fid));
        return fid;
    }

    /**
     * Asserts a layered fact: an assertion (a triple and a {@code source} ref to its document) or a
     * derived artifact (merge, edge, summary) with its receipt. Receipt members are named unpinned
     * ({@link dev.palimpsest.model.Pin#of}); the gate pins them at commit, or leaves a member
     * written in this transaction unpinned. Returns the id (minted when {@code id} is null).
     */
    public FactId assertGrounded(FactId id, Kind kind, String body, List<RefSpec> refs, Grounding grounding) {
        Objects.requireNonNull(kind, "kind");
        FactId fid = id != null ? id : mint(kind);
        ops.add(new Operation.Assert(fid, kind, body, null, refs, false, grounding));
        return fid;
    }

    /**
     * Writes a new version of a live artifact with a new body (null keeps it) and grounding; pinned
     * members must be carried over from the previous version, unpinned ones are pinned at commit.
     * {@code reason} (nullable) goes into the commit subject.
     */
    public Transaction reground(FactId id, String body, Grounding grounding, String reason) {
        ops.add(new Operation.Reground(id, body, grounding, reason));
        return this;
    }

    void add(Operation op) {
        ops.add(op);
    }

    /** Writes a new version of a live fact with a new body (null keeps it) and additional refs. */
    public Transaction revise(FactId id, String body, List<RefSpec> addRefs) {
        ops.add(new Operation.Revise(id, body, null, addRefs));
        return this;
    }

    /** Retracts a live fact: asserts it is false, removing its file and recording why. */
    public Transaction retract(FactId id, String reason) {
        ops.add(new Operation.Retract(id, reason));
        return this;
    }

    /**
     * Trusts {@code armoredPublicKey} (a v4 Ed25519 OpenPGP public key) as the key of the new actor
     * {@code name}, whose role is {@code agent} or {@code human} (null means {@code agent}).
     */
    public Transaction addKey(ActorName name, String armoredPublicKey, String role) {
        ops.add(new Operation.KeyAdd(name, armoredPublicKey, role));
        return this;
    }

    /** Revokes the key of {@code name}: it can sign nothing after this commit; the last key cannot be revoked. */
    public Transaction revokeKey(ActorName name) {
        ops.add(new Operation.KeyRevoke(name));
        return this;
    }

    /** The number of operations collected so far. */
    public int size() {
        return ops.size();
    }

    /**
     * Lands every operation as one signed commit on {@code main}.
     *
     * @throws RejectedException the gate found violations (all are listed); nothing was written
     * @throws ConflictException other writers kept moving {@code main} through every retry
     */
    public CommitResult commit() throws RejectedException, ConflictException {
        if (committed) {
            throw new IllegalStateException("transaction already committed");
        }
        committed = true;
        return writer.write(actor, signer, List.copyOf(ops));
    }

    private static FactId mint(Kind kind) {
        byte[] r = new byte[6];
        RANDOM.nextBytes(r);
        return FactId.of(kind.value() + "-" + HexFormat.of().formatHex(r));
    }
}
