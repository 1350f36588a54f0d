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
    /** The fact encoded by each fact file of {@link #files} the gate wrote from a decoded fact. */
    final Map<String, dev.palimpsest.model.Fact> facts;
    final List<FactId> written;
    final List<FactId> retracted;
    final List<FactId> forgotten;
    final String message;

    /** Takes {@code files} over: the gate that built it is done with it. */
    Plan(Map<String, byte[]> files, Map<String, dev.palimpsest.model.Fact> facts, List<FactId> written,
            List<FactId> retracted, List<FactId> forgotten, String message) {
        this.forgotten = List.copyOf(forgotten);
        this.files = java.util.Collections.unmodifiableMap(files);
        this.facts = java.util.Collections.unmodifiableMap(facts);
        this.written = List.copyOf(written);
        this.retracted = List.copyOf(retracted);
        this.message = message;
    }
}
