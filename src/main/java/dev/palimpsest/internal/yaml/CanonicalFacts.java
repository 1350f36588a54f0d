package dev.palimpsest.internal.yaml;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Decodes a fact file and tells whether it is canonical, fast for the common case: a file whose
 * strings are all printable ASCII without {@code "} or {@code \} is parsed directly against the
 * canonical layout, which {@link FactCodec#encode(Fact)} writes byte for byte for such facts; any
 * other file goes through {@link FactCodec} (decode, then compare with its re-encoding). The same
 * holds in the other direction for retraction records, which a cleanup cascade writes by the
 * thousand: {@link #encodeRetraction} writes the canonical bytes directly when every string is
 * simple. Stateless and thread-safe.
 */
public final class CanonicalFacts {
    /** A decoded fact and whether its bytes are exactly its canonical encoding. */
    public record Decoded(Fact fact, boolean canonical) {
        public Decoded {
            Objects.requireNonNull(fact, "fact");
        }
    }

    private CanonicalFacts() {}

    public static Decoded decode(byte[] bytes, String what) throws FormatException {
        return decode(bytes, what, SealKeys.NONE);
    }

    /** As {@link #decode(byte[], String)}, opening sealed content with {@code keys}. */
    public static Decoded decode(byte[] bytes, String what, SealKeys keys) throws FormatException {
        Fact f = new Parser(bytes, keys).fact();
        if (f != null) {
            return new Decoded(f, true);
        }
        f = FactCodec.decodeFact(bytes, what, keys);
        return new Decoded(f, FactCodec.isCanonicalFact(bytes, f));
    }

    /**
     * The fact in {@code bytes}, as {@link FactCodec#decodeFact} decodes it, without telling whether
     * the file is canonical: the fast parser for the simple canonical layout, else the YAML mapper.
     */
    public static Fact decodeFact(byte[] bytes, String what) throws FormatException {
        Fact f = new Parser(bytes, SealKeys.NONE).fact();
        return f != null ? f : FactCodec.decodeFact(bytes, what);
    }

    /**
     * The canonical encoding of {@code r} (byte for byte what {@link FactCodec}'s YAML mapper
     * writes), or null when one of its strings needs escaping and the mapper must write it.
     */
    static byte[] encodeRetraction(RetractionRecord r) {
        String id = r.version().id().value();
        String reason = r.reason();
        String actor = r.actor().value();
        if (!simple(id) || !simple(reason) || !simple(actor)) {
            return null;
        }
        StringBuilder b = new StringBuilder(160 + id.length() + reason.length());
        b.append("id: \"").append(id).append("\"\nversion:\n  commit: \"").append(r.version().commit().hex())
                .append("\"\n  blob: \"").append(r.version().blob().hex()).append("\"\nreason: \"").append(reason)
                .append("\"\nactor: \"").append(actor).append("\"\n");
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Printable ASCII without quote or backslash: written between double quotes as it is. */
    static boolean simple(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!plain(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** A character written between double quotes as it is: printable ASCII but quote and backslash. */
    private static boolean plain(int c) {
        return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\';
    }

    /** A parser of the simple canonical layout; every method returns null (or -1) on the first deviation. */
    private static final class Parser {
        private final byte[] b;
        private final SealKeys keys;
        private int pos;
        private FactId referrer;

        Parser(byte[] b, SealKeys keys) {
            this.b = b;
            this.keys = keys;
        }

        Fact fact() {
            String id = field("id: ");
            String kind = id == null ? null : field("kind: ");
            if (kind == null) {
                return null;
            }
            try {
                referrer = FactId.of(id);
            } catch (IllegalArgumentException e) {
                return null;
            }
            String[] envelope = null;
            String body = null;
            if (at("sealed:\n")) {
                String nonce = field("  nonce: ");
                String data = nonce == null ? null : field("  data: ");
                String digest = data == null ? null : field("  digest: ");
                if (digest == null) {
                    return null;
                }
                envelope = new String[] {nonce, data, digest};
            } else {
                body = field("body: ");
                if (body == null) {
                    return null;
                }
            }
            Double confidence = null;
            if (at("confidence: ")) {
                int end = lineEnd();
                if (end < 0) {
                    return null;
                }
                String num = new String(b, pos, end - pos, StandardCharsets.US_ASCII);
                try {
                    confidence = Double.parseDouble(num);
                } catch (NumberFormatException e) {
                    return null;
                }
                if (!Double.toString(confidence).equals(num)) {
                    return null;
                }
                pos = end + 1;
            }
            List<Ref> refs = new ArrayList<>();
            if (at("refs:\n")) {
                while (at("- ")) {
                    Ref r = ref();
                    if (r == null) {
                        return null;
                    }
                    refs.add(r);
                }
                if (refs.isEmpty()) {
                    return null;
                }
            }
            java.time.Instant retainUntil = null;
            if (at("retain_until: ")) {
                String ru = quoted();
                try {
                    retainUntil = ru == null ? null : java.time.Instant.parse(ru);
                } catch (java.time.format.DateTimeParseException e) {
                    return null;
                }
                if (retainUntil == null || !retainUntil.toString().equals(ru)) {
                    return null;
                }
            }
            if (pos != b.length) {
                return null;
            }
            try {
                Kind k = Kind.of(kind);
                dev.palimpsest.model.Seal seal = null;
                if (envelope != null) {
                    byte[] key = keys.key(referrer);
                    seal = new dev.palimpsest.model.Seal(envelope[0], envelope[1], envelope[2], key != null);
                    body = key == null ? (Sealing.hasTriple(k) ? null : dev.palimpsest.model.Seal.UNAVAILABLE)
                            : Sealing.openBody(key, referrer, k, seal);
                    if (body == null) {
                        return null; // more than a body is sealed, or it does not open: the full decoder decides
                    }
                }
                return new Fact(referrer, k, body, confidence, refs, null, null, null, seal, retainUntil);
            } catch (IllegalArgumentException e) {
                return null;
            }
        }

        private Ref ref() {
            String id = field("id: ");
            String role = id == null ? null : field("  role: ");
            if (role == null) {
                return null;
            }
            String commit = null;
            String blob = null;
            if (at("  commit: ")) {
                commit = quoted();
                blob = commit == null ? null : field("  blob: ");
                if (blob == null) {
                    return null;
                }
            }
            String quote = null;
            String quoteSealed = null;
            if (at("  quote: ")) {
                quote = quoted();
                if (quote == null) {
                    return null;
                }
            } else if (at("  quote_sealed: ")) {
                quoteSealed = quoted();
                if (quoteSealed == null) {
                    return null;
                }
            }
            try {
                FactId target = FactId.of(id);
                if (quoteSealed != null) {
                    try {
                        quote = Sealing.openQuote(keys.key(target), target, referrer, quoteSealed, id);
                    } catch (FormatException e) {
                        return null;
                    }
                }
                return new Ref(target, RefRole.of(role), commit == null ? null : CommitId.of(commit),
                        blob == null ? null : BlobId.of(blob), quote, quoteSealed);
            } catch (IllegalArgumentException e) {
                return null;
            }
        }

        /** {@code key} then a quoted simple string and a newline. */
        private String field(String key) {
            return at(key) ? quoted() : null;
        }

        /** A {@code "..."} of printable ASCII without quote or backslash, then a newline. */
        private String quoted() {
            if (pos >= b.length || b[pos] != '"') {
                return null;
            }
            int start = pos + 1;
            int i = start;
            while (i < b.length && b[i] != '"') {
                if (!plain(b[i])) {
                    return null;
                }
                i++;
            }
            if (i + 1 >= b.length || b[i + 1] != '\n') {
                return null;
            }
            pos = i + 2;
            return new String(b, start, i - start, StandardCharsets.US_ASCII);
        }

        private boolean at(String literal) {
            int n = literal.length();
            if (pos + n > b.length) {
                return false;
            }
            for (int k = 0; k < n; k++) {
                if (b[pos + k] != literal.charAt(k)) {
                    return false;
                }
            }
            pos += n;
            return true;
        }

        private int lineEnd() {
            for (int i = pos; i < b.length; i++) {
                if (b[i] == '\n') {
                    return i;
                }
            }
            return -1;
        }
    }
}
