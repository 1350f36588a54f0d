package dev.palimpsest.internal.yaml;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Decodes a fact file and tells whether it is canonical, fast for the common case: a file in the
 * canonical layout of the fields {@code id}, {@code kind}, {@code body} (or a {@code sealed}
 * envelope whose sealed content is the body alone, opened with the reader's keys), {@code
 * confidence}, {@code run}, {@code refs} (quotes plain or sealed), a claim's triple ({@code subject},
 * {@code predicate}, {@code object}), {@code valid_from}, {@code valid_until} and {@code retain_until} — each string double-quoted on one
 * line, with YAML's escapes and UTF-8 text — is parsed directly; any other file (pooled evidence,
 * receipts, sentences, a review, a sealed triple, line folding, anything unusual) goes through
 * {@link FactCodec}. Files whose strings are all printable ASCII without {@code "} or
 * {@code \} are canonical when they parse, since {@link FactCodec#encode(Fact)} writes them byte
 * for byte; for others canonicity is decided by comparing with the re-encoding. The same holds in
 * the other direction for retraction records, which a cleanup cascade writes by the thousand:
 * {@link #encodeRetraction} writes the canonical bytes directly when every string is simple.
 * Stateless and thread-safe.
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
        Parser p = new Parser(bytes, keys);
        Fact f = p.fact();
        if (f != null) {
            return new Decoded(f, p.simple || FactCodec.isCanonicalFact(bytes, f));
        }
        f = FactCodec.decodeFact(bytes, what, keys);
        return new Decoded(f, FactCodec.isCanonicalFact(bytes, f));
    }

    /**
     * The fact a file holds, exactly as {@link FactCodec#decodeFact} reads it (the same fact, or the
     * same {@link FormatException}), without deciding whether the file is canonical: what indexes
     * derived from git read.
     */
    public static Fact fact(byte[] bytes, String what) throws FormatException {
        return fact(bytes, what, SealKeys.NONE);
    }

    /**
     * As {@link #fact(byte[], String)}, opening sealed content with {@code keys}: a sealed file whose
     * sealed content is its body alone is read on the fast path, anything else sealed by {@link
     * FactCodec#decodeFact(byte[], String, SealKeys)}.
     */
    public static Fact fact(byte[] bytes, String what, SealKeys keys) throws FormatException {
        Fact f = new Parser(bytes, keys).fact();
        return f != null ? f : FactCodec.decodeFact(bytes, what, keys);
    }

    /** Whether {@code bytes} are in the layout read without the YAML library (for tests and benchmarks). */
    static boolean parses(byte[] bytes, SealKeys keys) {
        return new Parser(bytes, keys).fact() != null;
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
        StringBuilder b = room(160, id, reason);
        b.append("id: \"").append(id).append("\"\nversion:\n  commit: \"").append(r.version().commit().hex())
                .append("\"\n  blob: \"").append(r.version().blob().hex()).append("\"\nreason: \"").append(reason)
                .append("\"\nactor: \"").append(actor).append("\"\n");
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    @dev.palimpsest.model.DoNotMutate("capacity only: a wrong size costs a copy, never a different result")
    private static StringBuilder room(int extra, String... parts) {
        int n = extra;
        for (String p : parts) {
            n += p.length();
        }
        return new StringBuilder(n);
    }

    @dev.palimpsest.model.DoNotMutate("capacity only: a wrong size costs a copy, never a different result")
    private static StringBuilder room(int extra, int from, int to) {
        return new StringBuilder(extra + to - from);
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

    /** A parser of the canonical layout; every method returns null (or -1) on the first deviation. */
    private static final class Parser {
        private final byte[] b;
        private final SealKeys keys;
        private int pos;
        private FactId referrer;
        /** Every string so far was printable ASCII without quote or backslash. */
        boolean simple = true;

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
            String run = null;
            if (at("run: ")) {
                run = quoted();
                if (run == null) {
                    return null;
                }
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
            String subject = null;
            String predicate = null;
            String object = null;
            if (at("subject: ")) {
                subject = quoted();
                predicate = subject == null ? null : field("predicate: ");
                object = predicate == null ? null : field("object: ");
                if (object == null || envelope != null) {
                    return null;
                }
            }
            java.time.Instant validFrom = java.time.Instant.MIN;
            java.time.Instant validUntil = java.time.Instant.MAX;
            try {
                if (at("valid_from: ")) {
                    String v = quoted();
                    if (v == null) {
                        return null;
                    }
                    validFrom = dev.palimpsest.model.Validity.parseCanonical("valid_from", v);
                }
                if (at("valid_until: ")) {
                    String v = quoted();
                    if (v == null) {
                        return null;
                    }
                    validUntil = dev.palimpsest.model.Validity.parseCanonical("valid_until", v);
                }
            } catch (IllegalArgumentException e) {
                return null; // the full decoder names the problem
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
                Grounding g = subject == null ? Grounding.NONE
                        : new Grounding(subject, predicate, object, null, List.of(), false, null);
                return new Fact(referrer, k, body, confidence, refs, null, g, run, seal, retainUntil, false,
                        new dev.palimpsest.model.Validity(validFrom, validUntil));
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

        /**
         * A {@code "..."} on one line, then a newline: printable ASCII as it is, YAML's escapes,
         * and UTF-8 text of printable characters other than line breaks (else null: the YAML
         * library decides).
         */
        private String quoted() {
            if (pos >= b.length || b[pos] != '"') {
                return null;
            }
            int start = pos + 1;
            int i = start;
            while (i < b.length && plain(b[i])) {
                i++;
            }
            if (i < b.length && b[i] == '"') {
                if (i + 1 >= b.length || b[i + 1] != '\n') {
                    return null;
                }
                pos = i + 2;
                return new String(b, start, i - start, StandardCharsets.US_ASCII);
            }
            simple = false;
            StringBuilder out = room(16, start, i).append(new String(b, start, i - start, StandardCharsets.US_ASCII));
            while (i < b.length && b[i] != '"') {
                int c = b[i] & 0xff;
                if (plain(c)) {
                    out.append((char) c);
                    i++;
                } else if (c == '\\') {
                    i = escape(i + 1, out);
                } else if (c >= 0x80) {
                    i = utf8(i, out);
                } else {
                    return null; // control characters, DEL, line breaks
                }
                if (i < 0) {
                    return null;
                }
            }
            if (i + 1 >= b.length || b[i + 1] != '\n') {
                return null;
            }
            pos = i + 2;
            return out.toString();
        }

        /** Appends the escape at {@code i} (after the backslash); the offset after it, or -1. */
        private int escape(int i, StringBuilder out) {
            if (i >= b.length) {
                return -1;
            }
            int digits;
            switch (b[i]) {
                case '0': out.append('\0'); return i + 1;
                case 'a': out.append('\u0007'); return i + 1;
                case 'b': out.append('\b'); return i + 1;
                case 't': out.append('\t'); return i + 1;
                case 'n': out.append('\n'); return i + 1;
                case 'v': out.append('\u000b'); return i + 1;
                case 'f': out.append('\f'); return i + 1;
                case 'r': out.append('\r'); return i + 1;
                case 'e': out.append('\u001b'); return i + 1;
                case '"': out.append('"'); return i + 1;
                case '\\': out.append('\\'); return i + 1;
                case 'N': out.append('\u0085'); return i + 1;
                case '_': out.append('\u00a0'); return i + 1;
                case 'L': out.append('\u2028'); return i + 1;
                case 'P': out.append('\u2029'); return i + 1;
                case 'x': digits = 2; break;
                case 'u': digits = 4; break;
                case 'U': digits = 8; break;
                default: return -1;
            }
            if (i + 1 + digits > b.length) {
                return -1;
            }
            int cp = 0;
            for (int k = i + 1; k <= i + digits; k++) {
                int d = Character.digit(b[k], 16);
                if (d < 0) {
                    return -1;
                }
                cp = cp * 16 + d;
            }
            if (cp < 0 || cp > Character.MAX_CODE_POINT) {
                return -1;
            }
            out.appendCodePoint(cp);
            return i + 1 + digits;
        }

        /** Appends the UTF-8 sequence at {@code i} when well formed and printable in YAML; the offset after it, or -1. */
        private int utf8(int i, StringBuilder out) {
            int c = b[i] & 0xff;
            int n = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? (c <= 0xef ? 2 : -1) : c >= 0xc2 ? 1 : -1;
            if (n < 0 || i + n >= b.length) {
                return -1;
            }
            int cp = c & (0x3f >> n);
            for (int k = 1; k <= n; k++) {
                int cc = b[i + k] & 0xff;
                if ((cc & 0xc0) != 0x80) {
                    return -1;
                }
                cp = (cp << 6) | (cc & 0x3f);
            }
            int least = n == 1 ? 0x80 : n == 2 ? 0x800 : 0x10000;
            boolean printable = cp >= 0xa0 && cp <= 0xd7ff && cp != 0x2028 && cp != 0x2029
                    || cp >= 0xe000 && cp <= 0xfffd && cp != 0xfeff || cp >= 0x10000 && cp <= 0x10ffff;
            if (cp < least || !printable) {
                return -1;
            }
            out.appendCodePoint(cp);
            return i + n + 1;
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
