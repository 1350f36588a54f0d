package dev.palimpsest.model;

/**
 * How a commit's signature stands, checked as the audit checks it: against the keys trusted at the
 * commit's first parent (for a genesis commit, the key it introduces).
 */
public enum SignatureStatus {
    /** Signed by the author's key trusted at the first parent, and the signature matches the commit. */
    VERIFIED,
    /**
     * Signed, but not verifiable as the author's: a key not trusted there, another actor's key, a
     * signature that does not match, a malformed or repeated signature, or an identity mismatch.
     */
    UNTRUSTED,
    /** The commit carries no signature. */
    UNSIGNED;

    /** The status as printed: {@code verified}, {@code untrusted} or {@code unsigned}. */
    public String value() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public String toString() {
        return value();
    }
}
