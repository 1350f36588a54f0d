package dev.palimpsest.internal.audit;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;

/**
 * A commit object split the way {@code git verify-commit} splits it: the signed payload is the
 * object without its {@code gpgsig} (and {@code gpgsig-sha256}) header lines and their
 * continuation lines; the signature is the {@code gpgsig} value with continuation spaces removed.
 * Immutable.
 */
public final class RawCommit {
    /** A {@code name <email> time zone} line. */
    public record Ident(String name, String email, String when) {}

    /** One {@code Key: value} line of the message's last paragraph. */
    public record Trailer(String key, String value) {}

    private final ObjectId tree;
    private final List<ObjectId> parents;
    private final Ident author;
    private final Ident committer;
    private final String signature;
    private final int signatureHeaders;
    private final byte[] payload;
    private final String message;

    private RawCommit(ObjectId tree, List<ObjectId> parents, Ident author, Ident committer, String signature,
            int signatureHeaders, byte[] payload, String message) {
        this.tree = tree;
        this.parents = List.copyOf(parents);
        this.author = author;
        this.committer = committer;
        this.signature = signature;
        this.signatureHeaders = signatureHeaders;
        this.payload = payload;
        this.message = message;
    }

    /** Parses a commit object's bytes; throws IllegalArgumentException when it has no tree header. */
    public static RawCommit parse(byte[] raw) {
        ByteArrayOutputStream payload = new ByteArrayOutputStream(raw.length);
        StringBuilder sig = null;
        int sigHeaders = 0;
        boolean inSig = false;
        boolean skipping = false;
        ObjectId tree = null;
        List<ObjectId> parents = new ArrayList<>(1);
        Ident author = null;
        Ident committer = null;
        int pos = 0;
        while (pos < raw.length) {
            int nl = indexOf(raw, (byte) '\n', pos);
            int end = Math.min(nl + 1, raw.length);
            if (raw[pos] == '\n') {
                payload.write(raw, pos, raw.length - pos);
                String message = new String(raw, end, raw.length - end, StandardCharsets.UTF_8);
                if (tree == null) {
                    throw new IllegalArgumentException("commit has no tree header");
                }
                return new RawCommit(tree, parents, author, committer, sig == null ? null : sig.toString(),
                        sigHeaders, payload.toByteArray(), message);
            }
            String line = new String(raw, pos, nl - pos, StandardCharsets.UTF_8);
            if (line.startsWith(" ") && (inSig || skipping)) {
                if (inSig) {
                    sig.append(line, 1, line.length()).append('\n');
                }
            } else if (line.startsWith("gpgsig ") || line.startsWith("gpgsig-sha256 ")) {
                boolean gpgsig = line.startsWith("gpgsig ");
                inSig = gpgsig && sig == null;
                skipping = !inSig;
                if (gpgsig) {
                    sigHeaders++;
                }
                if (inSig) {
                    sig = new StringBuilder(line.substring("gpgsig ".length())).append('\n');
                }
            } else {
                inSig = false;
                skipping = false;
                payload.write(raw, pos, end - pos);
                if (line.startsWith("tree ") && tree == null) {
                    tree = id(line.substring(5));
                } else if (line.startsWith("parent ")) {
                    parents.add(id(line.substring(7)));
                } else if (line.startsWith("author ")) {
                    author = ident(line.substring(7));
                } else if (line.startsWith("committer ")) {
                    committer = ident(line.substring(10));
                }
            }
            pos = end;
        }
        throw new IllegalArgumentException("commit has no message");
    }

    public ObjectId tree() {
        return tree;
    }

    public List<ObjectId> parents() {
        return parents;
    }

    /** The author, or null when the header is missing or malformed. */
    public Ident author() {
        return author;
    }

    /** The committer, or null when the header is missing or malformed. */
    public Ident committer() {
        return committer;
    }

    /** The armored signature of the first {@code gpgsig} header, or null when unsigned. */
    public String signature() {
        return signature;
    }

    /** How many {@code gpgsig} headers the commit has (more than one is malformed). */
    public int signatureHeaders() {
        return signatureHeaders;
    }

    /** The bytes the signature covers. */
    public byte[] payload() {
        return payload;
    }

    public String message() {
        return message;
    }

    /** The {@code Key: value} lines of the message's last paragraph when it is not the only one, in order. */
    public List<Trailer> trailers() {
        String m = message.strip();
        int cut = m.lastIndexOf("\n\n");
        if (cut < 0) {
            return List.of();
        }
        List<Trailer> out = new ArrayList<>();
        for (String line : m.substring(cut + 2).split("\n")) {
            int colon = line.indexOf(": ");
            if (colon <= 0 || !isToken(line, colon)) {
                return List.of();
            }
            out.add(new Trailer(line.substring(0, colon), line.substring(colon + 2).strip()));
        }
        return out;
    }

    private static boolean isToken(String s, int end) {
        for (int i = 0; i < end; i++) {
            char ch = s.charAt(i);
            if (!(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-')) {
                return false;
            }
        }
        return true;
    }

    private static ObjectId id(String hex) {
        String h = hex.strip();
        return ObjectId.isId(h) ? ObjectId.fromString(h) : null;
    }

    private static Ident ident(String s) {
        int lt = s.indexOf(" <");
        int gt = s.indexOf("> ", lt + 2);
        if (lt < 0 || gt < 0) {
            return null;
        }
        return new Ident(s.substring(0, lt), s.substring(lt + 2, gt), s.substring(gt + 2));
    }

    /** The index of the first {@code x} at or after {@code from}, or {@code b.length}. */
    private static int indexOf(byte[] b, byte x, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return b.length;
    }
}
