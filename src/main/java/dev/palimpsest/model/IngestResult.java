package dev.palimpsest.model;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The outcome of an ingest: the commit, how many facts of each kind it wrote, whether it changed
 * the store config, and the artifacts whose receipts were truncated to the smallest 8 bundles.
 *
 *
 * <p>Immutable and thread-safe; {@code commit} is never null, null collections mean empty.
 */
public record IngestResult(CommitResult commit, SortedMap<String, Integer> kinds, boolean configured,
        List<FactId> truncated) {
    public IngestResult {
        kinds = Collections.unmodifiableSortedMap(new TreeMap<>(kinds == null ? Map.of() : kinds));
        truncated = List.copyOf(truncated);
    }
}
