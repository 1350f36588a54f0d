package dev.palimpsest.internal.write;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.query.Versions;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Rule;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The gate's forget rule: a forget of a sealed fact removes its file and writes its tombstone, and
 * cascades to the sealed derived artifacts of its closure (with derived: to every sealed member of
 * it); a forget without a reason, of a fact
 * never written, already forgotten, or written in plaintext is reported to the gate. Not
 * thread-safe (one per gate).
 */
final class ForgetRules {
    private final ReferenceGate gate;

    ForgetRules(ReferenceGate gate) {
        this.gate = gate;
    }

    /** Forgets {@code f.id()} (and, recursively, the sealed derived artifacts, or all sealed members, of its closure). */
    void forget(ActorName actor, Operation.Forget f, FactId root) {
        FactId id = f.id();
        String subject = "fact " + id;
        if (!gate.touched.add(id)) {
            if (!gate.forgotten.contains(id)) {
                gate.violation(Rule.DUPLICATE_OPERATION, subject, "is written more than once in one transaction");
            }
            return;
        }
        if (f.reason() == null || f.reason().isBlank()) {
            gate.violation(Rule.REASON_REQUIRED, subject, "forget needs a reason");
            return;
        }
        java.util.Optional<String> bad = dev.palimpsest.model.Text.findProblem("the reason", f.reason());
        if (bad.isPresent()) {
            gate.violation(Rule.INVALID_TEXT, subject, bad.get());
            return;
        }
        ObjectId at = gate.parent.commit();
        if (dev.palimpsest.internal.forget.Forgetting.tombstone(gate.parent, id) != null) {
            gate.violation(Rule.ALREADY_FORGOTTEN, subject, "was already forgotten at "
                    + gate.forgetting.tombstoneCommit(id, at).name() + " (its first tombstone); a second forget "
                    + "writes nothing and never restarts a retention clock");
            return;
        }
        dev.palimpsest.internal.index.FactState st = gate.versions.state(id);
        if (st == null) {
            gate.violation(Rule.NOT_FOUND, subject, "was never written in the ancestry of " + at.name());
            return;
        }
        ObjectId plain = gate.forgetting.plaintextVersion(id, at);
        String digest = plain == null ? gate.forgetting.digest(id, at) : null;
        if (plain != null || digest == null) {
            gate.violation(Rule.FORGET_PLAINTEXT, subject, id + " was written in plaintext at "
                    + (plain == null ? "an unknown commit" : plain.name()) + "; forgetting cannot erase it without "
                    + "rewriting signed history; retract it instead");
            return;
        }
        java.util.SortedSet<FactId> closure = gate.forgetting.closure(id, at);
        Versions.Located loc = gate.versions.locate(id, st);
        if (loc != null) {
            gate.files.put(loc.path(), null);
        }
        gate.files.put(StorePaths.tombstonePath(id), dev.palimpsest.internal.yaml.TombstoneRecord.encode(
                new dev.palimpsest.internal.yaml.TombstoneRecord(id, digest, f.reason(), actor, f.deadline(), closure)));
        gate.forgotten.add(id);
        gate.message.add("forget", CommitMessage.FACT, id.value(), f.reason());
        FactId cause = root == null ? id : root;
        for (FactId m : gate.forgetting.cascade(closure, at, f.withDerived())) {
            if (!gate.touched.contains(m)) {
                String why = root == null ? "cascade of forget " + cause + " (" + f.reason() + ")" : f.reason();
                forget(actor, new Operation.Forget(m, why, null, f.withDerived()), cause);
            }
        }
    }
}
