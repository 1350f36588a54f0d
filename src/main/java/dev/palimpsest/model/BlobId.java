package dev.palimpsest.model;

import java.util.Locale;

/**
 * A full 40-hex-digit git blob id: the content address of one version of a file.
 *
 * <p>Immutable and thread-safe; rejects null and anything but 40 hex digits with an {@link IllegalArgumentException}.
 */
public record BlobId(String hex) {
    public BlobId {
        Ids.require("blob id", hex == null ? null : hex.toLowerCase(Locale.ROOT), Ids.HEX40, "40 hex digits");
        hex = hex.toLowerCase(Locale.ROOT);
    }

    public static BlobId of(String hex) {
        return new BlobId(hex);
    }

    @Override
    public String toString() {
        return hex;
    }
}
