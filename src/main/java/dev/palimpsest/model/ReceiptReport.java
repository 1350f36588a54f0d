package dev.palimpsest.model;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Receipt liveness per layer ({@code assertion}, {@code merge}, {@code edge}, {@code summary}) at
 * commit {@code at}, under the store's flat-summary {@code policy}.
 *
 * <p>Immutable and thread-safe; {@code layers} null means empty; the map is copied and unmodifiable.
 */
public record ReceiptReport(CommitId at, Policy policy, SortedMap<Layer, LayerCounts> layers) {
    public ReceiptReport {
        layers = Collections.unmodifiableSortedMap(new TreeMap<>(layers == null ? Map.of() : layers));
    }
}
