package dev.palimpsest.model;

/**
 * One version of a produced file's record: its record id, name (metadata only), media type,
 * SHA-256 and size of the content, the content's path in the store's tree and git blob, the
 * commit that wrote this version, the agent run (null when none), its actor, and whether it is
 * live at the asked commit. Immutable.
 */
public record StoredFile(FactId id, String name, String mediaType, String sha256, long size, String path,
        BlobId content, CommitId commit, String run, String actor, boolean live) {}
