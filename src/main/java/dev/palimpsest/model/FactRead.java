package dev.palimpsest.model;

/**
 * The outcome of reading a fact that was written in the ancestry of a commit: it is
 * {@link Found found} there, or {@link Retracted retracted} with its last valid version. Callers
 * branch on the two cases (a fact never written there is a {@link NotFoundException}).
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface FactRead {
    FactId id();

    /** The fact is present (un-retracted) at the commit. */
    record Found(FactVersion version, Fact fact) implements FactRead {
        @Override
        public FactId id() {
            return version.id();
        }
    }

    /**
     * The fact was retracted at {@code retractedAt} (an ancestor-or-equal of the read commit);
     * {@code lastVersion} and {@code lastFact} are its last valid version.
     */
    record Retracted(FactId id, CommitId retractedAt, String reason, FactVersion lastVersion, Fact lastFact)
            implements FactRead {}
}
