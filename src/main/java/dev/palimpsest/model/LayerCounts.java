package dev.palimpsest.model;

/**
 * Receipt liveness of one layer at a commit: {@code alive} (file present, some bundle alive),
 * {@code dead} (written in the ancestry but retracted or with no live bundle), {@code touched}
 * (alive, but some bundle has a dead member) and {@code pending} (file still present although
 * its receipt died or some of its sentences did: what a cascade would clean).
 *
 * <p>Immutable and thread-safe.
 */
public record LayerCounts(int alive, int dead, int touched, int pending) {}
