package dev.palimpsest.api;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The directory that holds actors' secret keys, outside every repository.
 *
 * <p>Resolution order: an explicit path, then {@code $PALIMPSEST_HOME}, then {@code ~/.palimpsest}.
 * Immutable.
 */
public record KeyHome(Path dir) {
    public KeyHome {
        Objects.requireNonNull(dir, "key home");
        dir = dir.toAbsolutePath().normalize();
    }

    /** The explicit path when given, else {@code $PALIMPSEST_HOME}, else {@code ~/.palimpsest}. */
    public static KeyHome resolve(Path explicit) {
        if (explicit != null) {
            return new KeyHome(explicit);
        }
        String env = System.getenv("PALIMPSEST_HOME");
        if (env != null && !env.isBlank()) {
            return new KeyHome(Path.of(env));
        }
        return new KeyHome(Path.of(System.getProperty("user.home"), ".palimpsest"));
    }
}
