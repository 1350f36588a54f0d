package dev.palimpsest.model;

import java.util.Objects;

/**
 * The sealed envelope of a fact version whose content is encrypted (the {@code sealed:} block of
 * its file): the AES-GCM nonce and ciphertext (base64) and the keyed content hash (hex
 * HMAC-SHA256 under the fact's data key over the canonical plaintext). {@code open} tells whether
 * the {@link Fact} carrying it holds the real content (the data key was present when it was read)
 * or placeholders ({@link #UNAVAILABLE}): the key is absent, e.g. destroyed by {@code forget}.
 *
 * <p>Immutable and thread-safe; no field is null.
 */
public record Seal(String nonce, String data, String digest, boolean open) {
    /** The text standing in for every content field of a sealed fact read without its key. */
    public static final String UNAVAILABLE = "(sealed content unavailable)";

    public Seal {
        Objects.requireNonNull(nonce, "nonce");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(digest, "digest");
    }
}
