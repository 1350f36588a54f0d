package dev.palimpsest.model;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A named remote of a store: a git URL (file path, {@code file://}, {@code git://},
 * {@code ssh://}, {@code https://}) it pulls from and pushes to.
 *
 * <p>Immutable and thread-safe; {@code name} matches {@code [A-Za-z0-9][A-Za-z0-9._-]{0,63}}
 * (no {@code ..}), {@code url} is non-blank.
 */
public record Remote(String name, String url) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    public Remote {
        checkName(name);
        Objects.requireNonNull(url, "url");
        if (url.isBlank() || url.contains("\n")) {
            throw new IllegalArgumentException("remote URL must be one non-blank line");
        }
    }

    /** Throws IllegalArgumentException unless {@code name} is a valid remote name. */
    public static String checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches() || name.contains("..") || name.endsWith(".lock")) {
            throw new IllegalArgumentException("remote name '" + name
                    + "' must match [A-Za-z0-9][A-Za-z0-9._-]{0,63}, without '..' or a .lock ending");
        }
        return name;
    }
}
