package dev.palimpsest.web;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * A small HTML writer that escapes by default: {@link #text} and every attribute value go through
 * {@link #escape}; only the tag names and attribute names this package passes as literals are
 * written as they are. Everything a fact says is untrusted input, so no other path to the page
 * exists. Not thread-safe (one per page).
 */
final class Html {
    private final StringBuilder out = new StringBuilder(4096);

    /**
     * The text safe in HTML content and in a quoted attribute value: {@code & < > " '} become
     * character references; the bidirectional embedding, override and isolate controls
     * (U+202A–U+202E, U+2066–U+2069) and the C0 controls but tab, line feed and carriage return, and
     * DEL, are shown as visible markers such as {@code <U+202E>}, so no text can reorder or hide what
     * is around it. Lone surrogates are shown as {@code <U+D800>}-style markers too.
     */
    static String escape(CharSequence s) {
        StringBuilder b = null;
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            String r = replacement(s, i, c);
            if (r == null || r.isEmpty()) { // kept; "" is the high half of a valid pair: keep both halves
                if (b != null) {
                    b.append(c);
                    if (r != null) {
                        b.append(s.charAt(i + 1));
                    }
                }
                if (r != null) {
                    i++;
                }
                continue;
            }
            if (b == null) {
                b = new StringBuilder(n + 16);
                b.append(s, 0, i);
            }
            b.append(r);
        }
        return b == null ? s.toString() : b.toString();
    }

    /** The replacement for the char at {@code i}; null to keep it, "" for the high half of a valid pair. */
    private static String replacement(CharSequence s, int i, char c) {
        switch (c) {
            case '&':
                return "&amp;";
            case '<':
                return "&lt;";
            case '>':
                return "&gt;";
            case '"':
                return "&quot;";
            case '\'':
                return "&#39;";
            case '\t':
            case '\n':
            case '\r':
                return null;
            default:
                break;
        }
        if (c < 0x20 || c == 0x7f || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) {
            return marker(c);
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)) ? "" : marker(c);
        }
        if (Character.isLowSurrogate(c)) {
            return marker(c); // a low half not preceded by a high one (pairs are consumed whole)
        }
        return null;
    }

    private static String marker(char c) {
        return String.format("&lt;U+%04X&gt;", (int) c);
    }

    /** A value for a URL's path segment or query parameter, percent-encoded (spaces as {@code %20}). */
    static String url(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Opens {@code tag} with attributes given as name, value pairs (values escaped; a null value omits the pair). */
    Html open(String tag, String... attributes) {
        out.append('<').append(tag);
        attributes(attributes);
        out.append('>');
        return this;
    }

    /** A void element ({@code input}, {@code meta}, {@code link}) with attributes as {@link #open}. */
    Html empty(String tag, String... attributes) {
        return open(tag, attributes);
    }

    Html close(String tag) {
        out.append("</").append(tag).append('>');
        return this;
    }

    /** Escaped text. */
    Html text(Object value) {
        out.append(escape(String.valueOf(value)));
        return this;
    }

    /** {@code <tag attributes>text</tag>}, the text escaped. */
    Html element(String tag, Object text, String... attributes) {
        return open(tag, attributes).text(text).close(tag);
    }

    /** A link whose {@code href} is built by this package from escaped parts. */
    Html link(String href, Object text, String... attributes) {
        String[] all = new String[attributes.length + 2];
        all[0] = "href";
        all[1] = href;
        System.arraycopy(attributes, 0, all, 2, attributes.length);
        return element("a", text, all);
    }

    private void attributes(String[] attributes) {
        if (attributes.length % 2 != 0) {
            throw new IllegalArgumentException("attributes come in name, value pairs");
        }
        for (int i = 0; i < attributes.length; i += 2) {
            if (attributes[i + 1] != null) {
                out.append(' ').append(attributes[i]).append("=\"").append(escape(attributes[i + 1])).append('"');
            }
        }
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
