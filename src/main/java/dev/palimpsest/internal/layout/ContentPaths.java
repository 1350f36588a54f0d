package dev.palimpsest.internal.layout;

import java.util.regex.Pattern;

/** Paths of produced files' content: {@code files/<aa>/<bb>/<sha256>}, sharded by the hash itself. */
public final class ContentPaths {
    public static final String FOLDER = "files";
    private static final Pattern PATH = Pattern.compile("files/([0-9a-f]{2})/([0-9a-f]{2})/(([0-9a-f]{64}))");

    private ContentPaths() {}

    public static String of(String sha256) {
        return FOLDER + "/" + sha256.substring(0, 2) + "/" + sha256.substring(2, 4) + "/" + sha256;
    }

    /** The SHA-256 a well-formed content path names, or null. */
    public static String sha256Of(String path) {
        var m = PATH.matcher(path);
        if (!m.matches() || !m.group(3).startsWith(m.group(1) + m.group(2))) {
            return null;
        }
        return m.group(3);
    }

    public static boolean under(String path) {
        return path.startsWith(FOLDER + "/");
    }
}
