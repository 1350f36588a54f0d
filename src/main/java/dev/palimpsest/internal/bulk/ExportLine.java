package dev.palimpsest.internal.bulk;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.Seal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One live fact as one line of JSON, always with the same fields in the same order: {@code id},
 * {@code kind}, {@code content}, {@code body}, {@code subject}, {@code predicate}, {@code object},
 * {@code confidence}, {@code run}, {@code refs} ({@code id}, {@code role}, {@code quote}),
 * {@code receipt} (bundles of ids) and {@code retain_until}; absent values are {@code null}.
 *
 * <p>{@code content} says what the content fields hold: {@code clear} (a plaintext fact),
 * {@code sealed} (a sealed fact's content, exported on request), {@code withheld} (a sealed fact
 * whose content was not asked for) or {@code unavailable} (a sealed fact whose key is gone). In the
 * last two cases the body, triple and quotes are {@code null}: sealed text leaves the store only
 * when asked for, and erased text never. Stateless.
 */
public final class ExportLine {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ExportLine() {}

    /** The line of {@code f} (no line break), its sealed content included only when {@code includeSealed}. */
    public static String of(Fact f, boolean includeSealed) {
        String content = content(f, includeSealed);
        boolean show = content.equals("clear") || content.equals("sealed");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", f.id().value());
        m.put("kind", f.kind().value());
        m.put("content", content);
        m.put("body", show ? f.body() : null);
        m.put("subject", show ? f.grounding().subject() : null);
        m.put("predicate", show ? f.grounding().predicate() : null);
        m.put("object", show ? f.grounding().object() : null);
        m.put("confidence", f.confidence());
        m.put("run", f.run());
        List<Map<String, Object>> refs = new ArrayList<>();
        for (Ref r : f.refs()) {
            Map<String, Object> rm = new LinkedHashMap<>();
            rm.put("id", r.id().value());
            rm.put("role", r.role().value());
            rm.put("quote", quote(r, includeSealed));
            refs.add(rm);
        }
        m.put("refs", refs);
        List<List<String>> receipt = new ArrayList<>();
        if (f.grounding().receipt() != null) {
            for (List<Pin> bundle : f.grounding().receipt().bundles()) {
                receipt.add(bundle.stream().map(p -> p.id().value()).toList());
            }
        }
        m.put("receipt", receipt);
        m.put("retain_until", f.retainUntil() == null ? null : f.retainUntil().toString());
        try {
            return JSON.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write fact " + f.id() + " as JSON", e);
        }
    }

    private static String content(Fact f, boolean includeSealed) {
        if (f.seal() == null) {
            return "clear";
        }
        if (!f.seal().open()) {
            return "unavailable";
        }
        return includeSealed ? "sealed" : "withheld";
    }

    /** A quote in clear, or a sealed one only when asked for and still readable. */
    private static String quote(Ref r, boolean includeSealed) {
        if (r.quote() == null || Seal.UNAVAILABLE.equals(r.quote())) {
            return null;
        }
        return r.quoteSealed() != null && !includeSealed ? null : r.quote();
    }
}
