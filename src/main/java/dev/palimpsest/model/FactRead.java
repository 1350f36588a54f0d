package dev.palimpsest.model;

/**
 * The outcome of reading a fact at a commit; callers branch on the three cases.
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

    /** The fact was never written in the ancestry of the commit. */
    record Missing(FactId id, CommitId at) implements FactRead {}
}
