package dev.palimpsest.cli;

import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.LogEntry;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.Trailer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns model values into the ordered maps the CLI prints as JSON (fields documented in README). */
final class Render {
    private Render() {}

    static Map<String, Object> fact(Fact f, FactVersion v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", f.id().value());
        m.put("kind", f.kind().value());
        m.put("body", f.body());
        if (f.confidence() != null) {
            m.put("confidence", f.confidence());
        }
        f.validity().start().ifPresent(t -> m.put("valid_from", t.toString()));
        f.validity().end().ifPresent(t -> m.put("valid_until", t.toString()));
        List<Map<String, Object>> refs = new ArrayList<>();
        for (Ref r : f.refs()) {
            Map<String, Object> rm = new LinkedHashMap<>();
            rm.put("id", r.id().value());
            rm.put("role", r.role().value());
            rm.put("commit", r.commit() == null ? v.commit().hex() : r.commit().hex());
            rm.put("blob", r.blob() == null ? null : r.blob().hex());
            rm.put("same_transaction", r.sameTransaction());
            if (r.quote() != null) {
                rm.put("quote", r.quote());
            }
            refs.add(rm);
        }
        m.put("refs", refs);
        m.put("commit", v.commit().hex());
        m.put("blob", v.blob().hex());
        return m;
    }

    static String factText(Fact f, FactVersion v) {
        StringBuilder b = new StringBuilder();
        b.append("id:     ").append(f.id()).append('\n');
        b.append("kind:   ").append(f.kind()).append('\n');
        b.append("commit: ").append(v.commit().hex()).append('\n');
        b.append("blob:   ").append(v.blob().hex()).append('\n');
        if (f.confidence() != null) {
            b.append("confidence: ").append(f.confidence()).append('\n');
        }
        if (!f.validity().always()) {
            b.append("valid:  ").append(validity(f.validity())).append('\n');
        }
        b.append("body:   ").append(safe(f.body()).replace("\n", "\n        ")).append('\n');
        for (Ref r : f.refs()) {
            b.append("ref:    ").append(r.role()).append(' ').append(r.id()).append(" @ ")
                    .append(r.commit() == null ? "(same commit)" : r.commit().abbreviated());
            if (r.quote() != null) {
                b.append(" \"").append(safe(r.quote())).append('"');
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** A validity as {@code [from, until)}, an open bound written {@code open}. */
    static String validity(dev.palimpsest.model.Validity v) {
        return "[" + v.start().map(Object::toString).orElse("open") + ", " + v.end().map(Object::toString).orElse("open")
                + ")";
    }

    /**
     * Text for a terminal: control characters other than newline and tab (ESC, CR, BEL, DEL, C1)
     * and bidirectional overrides are shown escaped ({@code \\x1b}, {@code \\u202e}), so a body cannot
     * drive the terminal or hide text. JSON output is never escaped this way.
     */
    static String safe(String s) {
        if (s == null) {
            return null;
        }
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean escape = c != '\n' && c != '\t' && (Character.getType(c) == Character.CONTROL || bidi(c));
            if (escape && b == null) {
                b = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (escape) {
                b.append(c < 0x100 ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
            } else if (b != null) {
                b.append(c);
            }
        }
        return b == null ? s : b.toString();
    }

    private static boolean bidi(char c) {
        return (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
    }

    static Map<String, Object> history(HistoryEntry h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("commit", h.commit().hex());
        m.put("change", h.change().value());
        m.put("blob", h.blob() == null ? null : h.blob().hex());
        m.put("actor", h.actor().value());
        m.put("time", h.time().toString());
        return m;
    }

    static Map<String, Object> log(LogEntry e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("commit", e.commit().hex());
        m.put("parents", e.parents().stream().map(p -> p.hex()).toList());
        m.put("actor", e.actor());
        m.put("time", e.time().toString());
        m.put("subject", e.subject());
        List<Map<String, String>> ts = new ArrayList<>();
        for (Trailer t : e.trailers()) {
            ts.add(Map.of("key", t.key(), "value", t.value()));
        }
        m.put("trailers", ts);
        return m;
    }
}
