package dev.palimpsest.internal.layout;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Path functions of the on-disk format (see store-layout.md): every path is computable from an id,
 * sharded two levels deep by the SHA-256 of the id so a commit rewrites only the trees on its paths.
 * Stateless and thread-safe.
 */
public final class StorePaths {
    public static final String CONFIG = "palimpsest.yaml";
    public static final String KEYS = "keys";
    public static final String FACTS = "facts";
    public static final String SOURCES = "sources";
    public static final String RETRACTIONS = "retractions";
    public static final String TOMBSTONES = "tombstones";
    public static final String ASSERTIONS = "assertions";
    public static final String ARTIFACTS = "artifacts";
    /** Every folder a fact's file may live in, by role. */
    public static final List<String> FACT_FOLDERS = List.of(FACTS, SOURCES, ASSERTIONS, ARTIFACTS);

    private StorePaths() {}

    /** The folder for facts of this kind. */
    public static String folderFor(Kind kind) {
        if (Kind.SOURCE.equals(kind)) {
            return SOURCES;
        }
        if (Kind.ASSERTION.equals(kind)) {
            return ASSERTIONS;
        }
        return kind.isArtifact() ? ARTIFACTS : FACTS;
    }

    /** The path of a fact's file, e.g. {@code facts/3f/a2/my-fact.yaml}. */
    public static String factPath(Kind kind, FactId id) {
        return folderFor(kind) + "/" + shard(id) + id.value() + ".yaml";
    }

    /** The paths at which a fact with this id may live, one per role folder. */
    public static List<String> candidatePaths(FactId id) {
        String rest = "/" + shard(id) + id.value() + ".yaml";
        return FACT_FOLDERS.stream().map(f -> f + rest).toList();
    }

    public static String retractionPath(FactId id) {
        return RETRACTIONS + "/" + shard(id) + id.value() + ".yaml";
    }

    /** The retraction record's path for the fact file at {@code factPath}: the same shard and name. */
    public static String retractionPathOf(String factPath) {
        return RETRACTIONS + factPath.substring(factPath.indexOf('/'));
    }

    public static String keyPath(ActorName actor) {
        return KEYS + "/" + actor.value() + ".asc";
    }

    /** The tombstone record of a forgotten fact. */
    public static String tombstonePath(FactId id) {
        return TOMBSTONES + "/" + shard(id) + id.value() + ".yaml";
    }

    /** The record of an actor's key: its name, role and fingerprint. */
    public static String keyInfoPath(ActorName actor) {
        return KEYS + "/" + actor.value() + ".yaml";
    }

    /** {@code aa/bb/}: the first two bytes of SHA-256(id) in hex, one folder each. */
    public static String shard(FactId id) {
        byte[] h = sha256(id.value());
        HexFormat hex = HexFormat.of();
        return hex.toHexDigits(h[0]) + "/" + hex.toHexDigits(h[1]) + "/";
    }

    /** The fact id a path names, or null when the path is not a fact or retraction file. */
    public static FactId idFromPath(String path) {
        int slash = path.lastIndexOf('/');
        if (slash < 0 || !path.endsWith(".yaml")) {
            return null;
        }
        try {
            return FactId.of(path.substring(slash + 1, path.length() - ".yaml".length()));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    private static byte[] sha256(String s) {
        return SHA256.get().digest(s.getBytes(StandardCharsets.UTF_8));
    }
}
