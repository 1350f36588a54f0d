package dev.palimpsest.internal.write;

import dev.palimpsest.model.Rule;
import dev.palimpsest.internal.query.Versions;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Violation;

/**
 * The reference gate's checks of one retraction, shared with planning a retraction (which runs
 * them before reading any receipt, so a planned retraction fails exactly as a committed one
 * would). Stateless.
 */
public final class RetractRules {
    private RetractRules() {}

    /**
     * The violation of retracting {@code id} with {@code reason} where {@code versions} looks, its
     * live file there being {@code live} (null when it is not live); null when none.
     * {@code repeated}: the id was named before in the same transaction.
     */
    public static Violation check(FactId id, String reason, boolean repeated, Versions.Located live,
            Versions versions) {
        if (repeated) {
            return new Violation(Rule.DUPLICATE_OPERATION, "fact " + id, "is written more than once in one transaction");
        }
        if (reason == null || reason.isBlank()) {
            return new Violation(Rule.REASON_REQUIRED, "fact " + id, "a retraction needs a reason");
        }
        java.util.Optional<String> bad = dev.palimpsest.model.Text.findProblem("the reason", reason);
        if (bad.isPresent()) {
            return new Violation(Rule.INVALID_TEXT, "fact " + id, bad.get());
        }
        return live == null ? notLive(id, "retract", versions) : null;
    }

    /** Why {@code verb} cannot apply to {@code id}, which is not live where {@code versions} looks. */
    static Violation notLive(FactId id, String verb, Versions versions) {
        CommitId at = versions.retractedAt(id);
        if (at != null) {
            return new Violation(Rule.NOT_LIVE, "fact " + id, "cannot " + verb + ": already retracted at " + at.hex());
        }
        return new Violation(Rule.NOT_FOUND, "fact " + id, "cannot " + verb + ": does not exist at "
                + versions.commit().name());
    }
}
