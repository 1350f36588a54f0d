package dev.palimpsest.internal.query;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.History;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Answers version questions for one snapshot from its tree: whether a fact is live there, and its
 * last navigable version (the live file, or the version pinned by its retraction record). Finding
 * the commit that introduced a live version walks the file's history. Not thread-safe.
 */
public final class Versions {
    private final GitRepo repo;
    private final Snapshot snapshot;

    public Versions(GitRepo repo, Snapshot snapshot) {
        this.repo = repo;
        this.snapshot = snapshot;
    }

    /** A fact's live file at this snapshot: its path and blob. */
    public record Located(String path, ObjectId blob) {}

    /** The fact's live file, or null when it is not live here. */
    public Located locate(FactId id) {
        for (String p : StorePaths.candidatePaths(id)) {
            ObjectId b = snapshot.blobAt(p);
            if (b != null) {
                return new Located(p, b);
            }
        }
        return null;
    }

    public boolean live(FactId id) {
        return locate(id) != null;
    }

    /** The last navigable version at or before this snapshot, stepping over a retraction. */
    public Optional<FactVersion> existsAt(FactId id) {
        Located l = locate(id);
        if (l != null) {
            ObjectId c = History.lastChange(repo, snapshot.commit(), List.of(l.path()));
            return Optional.of(new FactVersion(id, CommitId.of(c.name()), BlobId.of(l.blob().name())));
        }
        RetractionRecord r = retraction(id);
        return r == null ? Optional.empty() : Optional.of(r.version());
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
            throw new dev.palimpsest.api.PalimpsestInternalException("corrupt retraction record: " + e.getMessage());
        }
    }

    /** The commit that wrote the fact's current retraction record (the retraction), or null. */
    public CommitId retractedAt(FactId id) {
        if (snapshot.blobAt(StorePaths.retractionPath(id)) == null) {
            return null;
        }
        ObjectId c = History.lastChange(repo, snapshot.commit(), List.of(StorePaths.retractionPath(id)));
        return c == null ? null : CommitId.of(c.name());
    }
}
