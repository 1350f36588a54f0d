package dev.palimpsest.internal.yaml;

/** The store configuration file {@code palimpsest.yaml}. Immutable. */
public record StoreConfig(int format, String layout) {
    public static final int FORMAT = 1;
    public static final String LAYOUT = "sha256-2x2";

    public static StoreConfig current() {
        return new StoreConfig(FORMAT, LAYOUT);
    }
}
