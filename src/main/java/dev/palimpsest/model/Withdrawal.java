package dev.palimpsest.model;

import java.util.Locale;

/**
 * The operation of a cleanup plan: retracting source documents and their assertions, revoking a
 * relation (every assertion using a predicate), or retracting facts by id. Immutable and
 * thread-safe.
 */
public enum Withdrawal {
    /** {@code retract-source}: documents and every assertion of them. */
    RETRACT_SOURCE,
    /** {@code revoke-relation}: every live assertion using a predicate. */
    REVOKE_RELATION,
    /** {@code retract}: the facts named. */
    RETRACT;

    /** The operation's name as printed and recorded in commit messages: {@code retract-source}, ... */
    public String value() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public String toString() {
        return value();
    }
}
