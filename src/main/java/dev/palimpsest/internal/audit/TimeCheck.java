package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.rules.TimeRules;
import java.io.IOException;
import java.time.Instant;

/**
 * The commit's dates follow {@link TimeRules}: author time equals committer time in zone
 * {@code +0000}, the signature was made within the tolerance of the committer time, and the commit
 * is neither older than its first parent nor later than the auditing clock beyond the tolerance.
 * A missing or malformed ident or signature is left to {@link CommitCheck}. Stateless.
 */
final class TimeCheck implements AuditCheck {
    @Override
    public boolean checksMerges() {
        return true;
    }

    @Override
    public void check(AuditedCommit c) throws IOException {
        RawCommit raw = c.raw();
        TimeRules.Stamp author = raw.author() == null ? null : TimeRules.Stamp.parse(raw.author().when());
        TimeRules.Stamp committer = raw.committer() == null ? null : TimeRules.Stamp.parse(raw.committer().when());
        if (author == null || committer == null) {
            return;
        }
        Instant signed = null;
        if (raw.signature() != null) {
            try {
                signed = c.signature().created();
            } catch (IllegalArgumentException e) {
                signed = null;
            }
        }
        TimeRules.Stamp parent = c.parent() == null ? null : c.run().committerTime(c.reading(), c.parent());
        TimeRules.check(author, committer, signed, parent, c.run().now, (rule, msg) -> c.violation(null, rule, msg));
    }
}
