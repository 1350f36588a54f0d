package dev.palimpsest.model;

import java.util.Locale;

/**
 * A full 40-hex-digit git commit id, stored in lower case.
 *
 * <p>Immutable and thread-safe; rejects null and anything but 40 hex digits with an {@link IllegalArgumentException}.
 */
public record CommitId(String hex) {
    public CommitId {
        Ids.require("commit id", hex == null ? null : hex.toLowerCase(Locale.ROOT), Ids.HEX40, "40 hex digits");
        hex = hex.toLowerCase(Locale.ROOT);
    }

    public static CommitId of(String hex) {
        return new CommitId(hex);
    }

    /** The first seven digits, as {@code git log --oneline} shows them. */
    public String abbreviated() {
        return hex.substring(0, 7);
    }

    @Override
    public String toString() {
        return hex;
    }
}
