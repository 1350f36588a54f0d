package dev.palimpsest.model;

/**
 * One fact that derives from an asked-about fact: it (some version of it written at or before the
 * asked commit) cites the asked fact directly ({@code depth} 1) or through {@code depth - 1}
 * intermediate dependents; {@code via} is the first hop of the shortest such path (the direct
 * dependent it goes through; equal to {@code id} at depth 1); {@code live} says whether the
 * dependent is live at the asked commit (false for one retracted since). Immutable.
 */
public record Dependent(FactId id, int depth, FactId via, boolean live) {}
