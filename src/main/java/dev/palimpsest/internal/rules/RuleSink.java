package dev.palimpsest.internal.rules;

import dev.palimpsest.model.Rule;

/**
 * Receives the violations a shared rule check finds, already bound to what they concern (the
 * gate's subject, the audit's commit and path). Implementations need not be thread-safe: a check
 * reports from the thread that called it.
 */
@FunctionalInterface
public interface RuleSink {
    /** Reports that {@code rule} is broken, with a readable {@code message}; neither is null. */
    void report(Rule rule, String message);
}
