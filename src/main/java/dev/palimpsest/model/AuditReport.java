package dev.palimpsest.model;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The outcome of an audit: how many commits, signatures, changed files and new refs were checked,
 * and every violation found, oldest commit first. Immutable; the list is copied.
 *
 * <p>Immutable and thread-safe; {@code violations} must not be null.
 */
public record AuditReport(int commits, int signatures, int files, int refs, List<AuditViolation> violations) {
    public AuditReport {
        if (commits < 0 || signatures < 0 || files < 0 || refs < 0) {
            throw new IllegalArgumentException("counts must not be negative");
        }
        violations = List.copyOf(violations);
    }

    /** True when no violation was found. */
    public boolean clean() {
        return violations.isEmpty();
    }

    /** How many distinct commits have at least one violation. */
    public int violatingCommits() {
        return (int) violations.stream().map(AuditViolation::commit).distinct().count();
    }

    /** Violation counts by rule id, sorted by id. */
    public Map<String, Integer> countsByRule() {
        Map<String, Integer> m = new TreeMap<>();
        for (AuditViolation v : violations) {
            m.merge(v.rule().id(), 1, Integer::sum);
        }
        return m;
    }

    /**
     * The report of this audit followed by {@code later}'s, of the commits after it (as
     * {@code Auditor.auditRange} from this audit's tip gives): counts summed, this report's
     * violations then {@code later}'s.
     */
    public AuditReport followedBy(AuditReport later) {
        java.util.Objects.requireNonNull(later, "later");
        List<AuditViolation> all = new java.util.ArrayList<>(violations);
        all.addAll(later.violations());
        return new AuditReport(commits + later.commits(), signatures + later.signatures(), files + later.files(),
                refs + later.refs(), all);
    }
}
