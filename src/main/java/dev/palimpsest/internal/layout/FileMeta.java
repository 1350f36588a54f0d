package dev.palimpsest.internal.layout;

import dev.palimpsest.model.FactId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metadata of one version of a produced file, kept as the body of its record (a fact of kind
 * {@code file}) in a canonical four- or five-line form:
 *
 * <pre>
 * name: "report/../../etc/passwd"
 * media_type: "text/plain"
 * sha256: "&lt;64 hex&gt;"
 * size: 1234
 * run: "run-7"            (optional)
 * </pre>
 *
 * The name is metadata only (JSON string escaping; never a path). Immutable.
 */
public record FileMeta(String name, String mediaType, String sha256, long size, String run) {
    public static final String KIND = "file";
    /** The id prefix of file records: {@code file-} + 16 hex digits of SHA-256(name). */
    public static final String ID_PREFIX = "file-";
    private static final int MAX_NAME_BYTES = 1024;
    private static final Pattern SHA = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern MEDIA = Pattern.compile("[a-z0-9][a-z0-9.+-]*/[a-z0-9][a-z0-9.+-]*");
    private static final Pattern BODY = Pattern.compile("name: (\"(?:[^\"\\\\]|\\\\.)*\")\n"
            + "media_type: \"([^\"\n]*)\"\nsha256: \"([^\"\n]*)\"\nsize: (0|[1-9][0-9]{0,18})"
            + "(?:\nrun: (\"(?:[^\"\\\\]|\\\\.)*\"))?");

    /** The problem with a name, or null: non-empty, at most 1,024 UTF-8 bytes, no NUL. */
    public static String nameProblem(String name) {
        if (name.isEmpty()) {
            return "a file name must not be empty";
        }
        if (name.indexOf('\0') >= 0) {
            return "a file name must not contain NUL";
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            return "a file name must be at most " + MAX_NAME_BYTES + " bytes of UTF-8";
        }
        return null;
    }

    /** The record id of a name: {@code file-} + the first 16 hex digits of SHA-256 of its UTF-8. */
    public static FactId idOf(String name) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
            return FactId.of(ID_PREFIX + HexFormat.of().formatHex(h, 0, 8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A media type guessed from the name's extension; {@code application/octet-stream} otherwise. */
    public static String mediaTypeOf(String name) {
        int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
        String base = name.substring(slash + 1);
        int dot = base.lastIndexOf('.');
        String ext = dot < 0 ? "" : base.substring(dot + 1).toLowerCase(Locale.ROOT);
        switch (ext) {
            case "txt": case "log": return "text/plain";
            case "md": return "text/markdown";
            case "csv": return "text/csv";
            case "html": case "htm": return "text/html";
            case "json": return "application/json";
            case "yaml": case "yml": return "application/yaml";
            case "xml": return "application/xml";
            case "pdf": return "application/pdf";
            case "png": return "image/png";
            case "jpg": case "jpeg": return "image/jpeg";
            case "gif": return "image/gif";
            case "svg": return "image/svg+xml";
            case "zip": return "application/zip";
            case "gz": return "application/gzip";
            case "py": return "text/x-python";
            case "java": return "text/x-java";
            default: return "application/octet-stream";
        }
    }

    /** The canonical body. */
    public String encode() {
        StringBuilder b = new StringBuilder();
        b.append("name: ").append(quote(name)).append('\n');
        b.append("media_type: \"").append(mediaType).append("\"\n");
        b.append("sha256: \"").append(sha256).append("\"\n");
        b.append("size: ").append(size);
        if (run != null) {
            b.append("\nrun: ").append(quote(run));
        }
        return b.toString();
    }

    /** Decodes a canonical body; null when it is not one. */
    public static FileMeta decode(String body) {
        Matcher m = BODY.matcher(body);
        if (!m.matches()) {
            return null;
        }
        try {
            String name = unquote(m.group(1));
            String run = m.group(5) == null ? null : unquote(m.group(5));
            FileMeta f = new FileMeta(name, m.group(2), m.group(3), Long.parseLong(m.group(4)), run);
            if (!SHA.matcher(f.sha256).matches() || !MEDIA.matcher(f.mediaType).matches() || nameProblem(name) != null
                    || !f.encode().equals(body)) {
                return null;
            }
            return f;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The content's path: {@code files/<aa>/<bb>/<sha256>}. */
    public String contentPath() {
        return ContentPaths.of(sha256);
    }

    public static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029) {
                b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    static String unquote(String q) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i < q.length() - 1; i++) {
            char c = q.charAt(i);
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char n = q.charAt(++i);
            if (n == 'u') {
                b.append((char) Integer.parseInt(q.substring(i + 1, i + 5), 16));
                i += 4;
            } else {
                b.append(n);
            }
        }
        return b.toString();
    }
}
