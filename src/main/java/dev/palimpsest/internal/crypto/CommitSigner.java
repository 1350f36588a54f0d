package dev.palimpsest.internal.crypto;

import java.time.Instant;

/**
 * Produces detached, ASCII-armored OpenPGP signatures over commit payloads, as git stores them in
 * a commit's {@code gpgsig} header. Implementations are thread-safe.
 */
public interface CommitSigner {
    /** Signs {@code payload} (the commit without its gpgsig header) with creation time {@code time}. */
    String sign(byte[] payload, Instant time);

    /** The signing key's fingerprint, upper-case hex. */
    String fingerprint();

    /** The e-mail address of the key's user id. */
    String email();
}
