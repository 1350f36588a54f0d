package dev.palimpsest.internal.write;

import dev.palimpsest.model.FactId;
import java.util.List;
import java.util.Map;

/**
 * What the gate approved: file contents by path (null deletes), the commit message, and the ids
 * written and retracted. Only the gate creates plans; only the committer consumes them.
 */
final class Plan {
    final Map<String, byte[]> files;
    final List<FactId> written;
    final List<FactId> retracted;
    final String message;

    /** Takes {@code files} over: the gate that built it is done with it. */
    Plan(Map<String, byte[]> files, List<FactId> written, List<FactId> retracted, String message) {
        this.files = java.util.Collections.unmodifiableMap(files);
        this.written = List.copyOf(written);
        this.retracted = List.copyOf(retracted);
        this.message = message;
    }
}
