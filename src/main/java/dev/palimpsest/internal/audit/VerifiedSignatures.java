package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.crypto.TrustedKey;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Commit signatures already verified before an audit (e.g. by {@link SignaturePrecheck} while the
 * commits were fetched), so the audit skips the verification itself. Thread-safe.
 */
public interface VerifiedSignatures {
    /** True only when {@code key}'s signature over the exact object {@code commit} was verified. */
    boolean verified(ObjectId commit, TrustedKey key);

    /** Knows of none. */
    VerifiedSignatures NONE = (commit, key) -> false;
}
