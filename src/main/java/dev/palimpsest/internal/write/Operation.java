package dev.palimpsest.internal.write;

import dev.palimpsest.internal.yaml.Ontology;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import java.util.List;
import java.util.Objects;

/** One change inside a transaction. Immutable. */
public sealed interface Operation {
    /** The verb written in the {@code Palimpsest-Op} trailer. */
    String verb();

    /** Creates a store: its config and its first actor's public key. */
    record Init(ActorName actor, String armoredPublicKey, String encrypt, java.util.Map<String, String> retention,
            java.util.Set<dev.palimpsest.model.AgentPermission> agentsMay) implements Operation {
        public Init(ActorName actor, String armoredPublicKey, String encrypt, java.util.Map<String, String> retention) {
            this(actor, armoredPublicKey, encrypt, retention, java.util.Set.of());
        }

        public Init(ActorName actor, String armoredPublicKey) {
            this(actor, armoredPublicKey, null, null);
        }

        public Init {
            agentsMay = java.util.Set.copyOf(agentsMay == null ? java.util.Set.of() : agentsMay);
        }

        @Override
        public String verb() {
            return "init";
        }
    }

    /**
     * Writes a new fact with a fresh or re-added id. With {@code poolEvidence}, the fact records the
     * evidence mass of the lineage of its {@code merged_from} targets as of the parent (a merge,
     * computed before its inputs are retracted in the same commit). {@code grounding} carries the
     * triple and the receipts, whose members the gate pins (see {@link ReceiptRules}).
     */
    record Assert(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs, boolean poolEvidence,
            Grounding grounding, String run, boolean sensitive, java.time.Instant retainUntil, boolean plaintext,
            java.time.Instant validFrom, java.time.Instant validUntil) implements Operation {
        public Assert(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs, boolean poolEvidence,
                Grounding grounding, String run, boolean sensitive, java.time.Instant retainUntil, boolean plaintext) {
            this(id, kind, body, confidence, refs, poolEvidence, grounding, run, sensitive, retainUntil, plaintext, null,
                    null);
        }

        public Assert(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs, boolean poolEvidence,
                Grounding grounding, String run, boolean sensitive, java.time.Instant retainUntil) {
            this(id, kind, body, confidence, refs, poolEvidence, grounding, run, sensitive, retainUntil, false);
        }

        public Assert(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs, boolean poolEvidence,
                Grounding grounding, String run) {
            this(id, kind, body, confidence, refs, poolEvidence, grounding, run, false, null);
        }

        public Assert(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs, boolean poolEvidence,
                Grounding grounding) {
            this(id, kind, body, confidence, refs, poolEvidence, grounding, null);
        }

        public Assert(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs) {
            this(id, kind, body, confidence, refs, false);
        }

        public Assert(FactId id, Kind kind, String body, Double confidence, List<RefSpec> refs, boolean poolEvidence) {
            this(id, kind, body, confidence, refs, poolEvidence, Grounding.NONE);
        }

        public Assert {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(kind, "kind");
            refs = List.copyOf(refs == null ? List.of() : refs);
            grounding = grounding == null ? Grounding.NONE : grounding;
        }

        /**
         * {@code supersede} when a ref of the spec has the role {@code supersedes} (the new fact
         * supersedes its target by addition), else {@code assert}; both add the fact's file.
         */
        @Override
        public String verb() {
            return refs.stream().anyMatch(r -> RefRole.SUPERSEDES.equals(r.role())) ? "supersede" : "assert";
        }
    }

    /**
     * Writes a new version of a live fact; null fields keep the previous value; refs are added. A
     * validity bound of {@link java.time.Instant#MIN} (start) or {@link java.time.Instant#MAX} (end)
     * opens it.
     */
    record Revise(FactId id, String body, Double confidence, List<RefSpec> addRefs, java.time.Instant validFrom,
            java.time.Instant validUntil) implements Operation {
        public Revise(FactId id, String body, Double confidence, List<RefSpec> addRefs) {
            this(id, body, confidence, addRefs, null, null);
        }

        public Revise {
            Objects.requireNonNull(id, "id");
            addRefs = List.copyOf(addRefs == null ? List.of() : addRefs);
        }

        @Override
        public String verb() {
            return "revise";
        }
    }

    /** Asserts that a live fact is false: removes its file and records the retraction. */
    record Retract(FactId id, String reason) implements Operation {
        public Retract {
            Objects.requireNonNull(id, "id");
        }

        @Override
        public String verb() {
            return "retract";
        }
    }

    /**
     * Forgets a sealed fact: writes its tombstone (digest, reason, actor, {@code deadline} when it
     * expired, closure), removes its file when live, and forgets the sealed derived artifacts of its
     * closure in the same commit; {@code withDerived} forgets every sealed member of the closure
     * (citers and quoters too). The caller destroys the data keys once the commit landed.
     */
    record Forget(FactId id, String reason, java.time.Instant deadline, boolean withDerived) implements Operation {
        /** A forget that cascades to the sealed derived artifacts (merges, edges, summaries) of the closure only. */
        public Forget(FactId id, String reason, java.time.Instant deadline) {
            this(id, reason, deadline, false);
        }

        public Forget {
            Objects.requireNonNull(id, "id");
        }

        @Override
        public String verb() {
            return "forget";
        }
    }

    /** Trusts a new actor's Ed25519 public key, recording the actor's role ({@code agent} or {@code human}). */
    record KeyAdd(ActorName name, String armoredPublicKey, String role) implements Operation {
        public KeyAdd {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(armoredPublicKey, "armoredPublicKey");
        }

        @Override
        public String verb() {
            return "key-add";
        }
    }

    /** Stops trusting an actor's key from this commit on; commits it signed earlier stay valid. */
    record KeyRevoke(ActorName name) implements Operation {
        public KeyRevoke {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String verb() {
            return "key-revoke";
        }
    }

    /**
     * Writes a new version of a live artifact with a new body and grounding (receipt or sentences):
     * members pinned in the previous version are carried over unchanged, unpinned ones are pinned
     * by the gate. Used by cleanup (dropping dead sentences) and entailment (changed derivations);
     * with {@code receiptsOnly} (a writer's {@code revise} with receipts) only the receipt, the
     * sentences and {@code flat} of {@code grounding} replace the artifact's (its triple and review
     * are kept), and {@code flat} is set exactly when a summary gets a whole receipt.
     */
    record Reground(FactId id, String body, Grounding grounding, String reason, boolean receiptsOnly)
            implements Operation {
        /** A new grounding that replaces the old one whole. */
        public Reground(FactId id, String body, Grounding grounding, String reason) {
            this(id, body, grounding, reason, false);
        }

        public Reground {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(grounding, "grounding");
        }

        @Override
        public String verb() {
            return "revise";
        }
    }

    /**
     * Writes a new version of {@code palimpsest.yaml}: a policy (null keeps it), more axioms, more
     * multi-valued predicates, layers whose receipts are trusted (true) or ignored (false), and what
     * agent keys may do ({@code agentsMay}, null keeps it).
     */
    record Configure(String policy, Ontology ontology, List<String> multiValued, java.util.Map<String, Boolean> layerTrust,
            java.util.Set<dev.palimpsest.model.AgentPermission> agentsMay) implements Operation {
        public Configure(String policy, Ontology ontology) {
            this(policy, ontology, List.of());
        }

        public Configure(String policy, Ontology ontology, List<String> multiValued) {
            this(policy, ontology, multiValued, java.util.Map.of());
        }

        public Configure(String policy, Ontology ontology, List<String> multiValued,
                java.util.Map<String, Boolean> layerTrust) {
            this(policy, ontology, multiValued, layerTrust, null);
        }

        /** Sets {@code agents_may} to exactly {@code grants} (a human key's call: the gate refuses an agent key). */
        public static Configure agentsMay(java.util.Set<dev.palimpsest.model.AgentPermission> grants) {
            return new Configure(null, null, List.of(), java.util.Map.of(), java.util.Set.copyOf(grants));
        }

        public Configure {
            multiValued = List.copyOf(multiValued == null ? List.of() : multiValued);
            layerTrust = java.util.Map.copyOf(layerTrust == null ? java.util.Map.of() : layerTrust);
            agentsMay = agentsMay == null ? null : java.util.Set.copyOf(agentsMay);
        }

        @Override
        public String verb() {
            return "configure";
        }
    }
}
