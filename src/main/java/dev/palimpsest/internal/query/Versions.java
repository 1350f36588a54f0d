package dev.palimpsest.internal.query;

import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Kind;
import java.util.Optional;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Version questions for one snapshot, answered by the {@link PredicateIndex}: whether a fact is
 * live there, its last navigable version, its file, and its retraction. Not thread-safe.
 */
public final class Versions {
    private final PredicateIndex index;
    private final Snapshot snapshot;

    public Versions(PredicateIndex index, Snapshot snapshot) {
        this.index = index;
        this.snapshot = snapshot;
    }

    /** The commit these questions are asked at. */
    public ObjectId commit() {
        return snapshot.commit();
    }

    /** A fact's live file at this snapshot: its path and blob. */
    public record Located(String path, ObjectId blob) {}

    public FactState state(FactId id) {
        return index.state(id, snapshot.commit());
    }

    /** The fact's live file, or null when it is not live here. */
    public Located locate(FactId id) {
        return locate(id, state(id));
    }

    /** The live file of fact {@code id} whose indexed state here is {@code s}, or null. */
    public Located locate(FactId id, FactState s) {
        if (s == null || !s.live()) {
            return null;
        }
        if (s.kind() != null) {
            String path = StorePaths.factPath(Kind.of(s.kind()), id);
            return new Located(path, s.blob());
        }
        for (String p : StorePaths.candidatePaths(id)) {
            ObjectId b = snapshot.blobAt(p);
            if (b != null) {
                return new Located(p, b);
            }
        }
        return null;
    }

    /** factLiveAtCommit: present, un-retracted, at this snapshot. */
    public boolean live(FactId id) {
        FactState s = state(id);
        return s != null && s.live();
    }

    /** factExistsAt: the last navigable version at or before this snapshot, stepping over retractions. */
    public Optional<FactVersion> existsAt(FactId id) {
        return version(id, state(id));
    }

    /** The last navigable version of fact {@code id} whose indexed state here is {@code s}. */
    public static Optional<FactVersion> version(FactId id, FactState s) {
        if (s == null || s.versionCommit() == null || s.blob() == null) {
            return Optional.empty();
        }
        return Optional.of(new FactVersion(id, CommitId.of(s.versionCommit().name()), BlobId.of(s.blob().name())));
    }

    /** The retraction record of a fact that is not live here, or null. */
    public RetractionRecord retraction(FactId id) {
        String path = StorePaths.retractionPath(id);
        byte[] bytes = snapshot.readPath(path);
        if (bytes == null) {
            return null;
        }
        try {
            return FactCodec.decodeRetraction(bytes, path);
        } catch (FormatException e) {
            throw new PalimpsestInternalException("corrupt retraction record: " + e.getMessage());
        }
    }

    /** The commit that removed the fact's file (its retraction), or null when it is live or never written. */
    public CommitId retractedAt(FactId id) {
        FactState s = state(id);
        return s == null || s.live() ? null : CommitId.of(s.changedAt().name());
    }
}
