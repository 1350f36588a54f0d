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

    /**
     * The signature of {@code commit} as parsed before the audit from bytes that hash to that
     * commit, for the audit to take instead of parsing it again; null when not known. A signature
     * handed out here is used by the one thread that audits the commit.
     */
    default dev.palimpsest.internal.crypto.CommitSignature parsed(ObjectId commit) {
        return null;
    }

    /** Knows of none. */
    VerifiedSignatures NONE = (commit, key) -> false;
}
