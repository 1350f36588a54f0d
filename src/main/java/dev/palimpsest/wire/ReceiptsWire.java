package dev.palimpsest.wire;

import dev.palimpsest.model.ArtifactReceipts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON object of one fact's receipts at a commit (CLI {@code receipts ID --json}, MCP
 * {@code receipts}), as an insertion-ordered map for a JSON mapper. Stateless; arguments must not be null.
 */
public final class ReceiptsWire {
    private ReceiptsWire() {}

    /**
     * {@code id}, {@code kind}, {@code at}, {@code live}, {@code alive}, {@code flat}, {@code receipt}
     * (bundles, each a list of {@code {id, commit, alive}}, {@code commit} null for a member written
     * in the same commit) and {@code sentences} (each {@code {text, alive, receipt}}).
     */
    public static Map<String, Object> of(ArtifactReceipts r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.id().value());
        m.put("kind", r.kind().value());
        m.put("at", r.at().hex());
        m.put("live", r.live());
        m.put("alive", r.alive());
        m.put("flat", r.flat());
        m.put("receipt", bundles(r.receipt()));
        List<Map<String, Object>> ss = new ArrayList<>();
        for (ArtifactReceipts.SentenceReceipt s : r.sentences()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("text", s.text());
            x.put("alive", s.alive());
            x.put("receipt", bundles(s.bundles()));
            ss.add(x);
        }
        m.put("sentences", ss);
        return m;
    }

    private static List<List<Map<String, Object>>> bundles(List<List<ArtifactReceipts.Member>> bundles) {
        List<List<Map<String, Object>>> out = new ArrayList<>();
        for (List<ArtifactReceipts.Member> b : bundles) {
            List<Map<String, Object>> ms = new ArrayList<>();
            for (ArtifactReceipts.Member mem : b) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("id", mem.pin().id().value());
                x.put("commit", mem.pin().commit() == null ? null : mem.pin().commit().hex());
                x.put("alive", mem.alive());
                ms.add(x);
            }
            out.add(ms);
        }
        return out;
    }
}
