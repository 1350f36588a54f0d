package dev.palimpsest.internal.write;

import dev.palimpsest.model.FactId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the gate approved: file contents by path (null deletes), the commit message, and the ids
 * written and retracted. Only the gate creates plans; only the committer consumes them.
 */
final class Plan {
    final Map<String, byte[]> files = new LinkedHashMap<>();
    final List<FactId> written;
    final List<FactId> retracted;
    final String message;

    Plan(Map<String, byte[]> files, List<FactId> written, List<FactId> retracted, String message) {
        this.files.putAll(files);
        this.written = List.copyOf(written);
        this.retracted = List.copyOf(retracted);
        this.message = message;
    }
}
