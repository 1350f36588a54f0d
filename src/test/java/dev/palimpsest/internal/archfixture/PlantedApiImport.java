package dev.palimpsest.internal.archfixture;

import dev.palimpsest.api.Store;

/** A planted violation: an internal class that reaches up into the public API. Only the architecture test reads it. */
public final class PlantedApiImport {
    private PlantedApiImport() {
    }

    static Class<?> roof() {
        return Store.class;
    }
}
