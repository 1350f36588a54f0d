package dev.palimpsest.model;

/**
 * A fact version that cites a target: the referrer, the commit of the referrer's version, the
 * role, the target version it pinned, and whether that referrer version is live at the asked
 * commit.
 *
 * <p>Immutable and thread-safe; {@code pinnedBlob} is null for a same-transaction ref, other components are never null.
 */
public record InboundRef(FactId referrer, CommitId referrerVersion, RefRole role, CommitId pinnedCommit,
        BlobId pinnedBlob, boolean live) {}
