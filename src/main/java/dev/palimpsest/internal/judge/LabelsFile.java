package dev.palimpsest.internal.judge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.LabelledClaim;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A labels file for {@code verify-eval}: a YAML (or JSON) list of mappings {@code claim},
 * {@code quote}, {@code source} (a fact id) or {@code source_text}, and {@code supported} (a
 * boolean). Every malformed entry is reported. Stateless.
 */
public final class LabelsFile {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private LabelsFile() {}

    public static List<LabelledClaim> parse(byte[] bytes) throws RejectedException {
        JsonNode root;
        try {
            root = YAML.readTree(bytes);
        } catch (IOException e) {
            throw new RejectedException(Rule.INVALID_ARGUMENT, "--labels", "not YAML or JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (root == null || !root.isArray() || root.isEmpty()) {
            throw new RejectedException(Rule.INVALID_ARGUMENT, "--labels", "expected a non-empty list of labelled claims");
        }
        List<LabelledClaim> out = new ArrayList<>();
        List<Violation> bad = new ArrayList<>();
        int i = 0;
        for (JsonNode n : root) {
            String where = "--labels #" + ++i;
            String claim = n.path("claim").isTextual() ? n.get("claim").asText() : null;
            String quote = n.path("quote").isTextual() ? n.get("quote").asText() : null;
            String source = n.path("source").isTextual() ? n.get("source").asText() : null;
            String text = n.path("source_text").isTextual() ? n.get("source_text").asText() : null;
            JsonNode sup = n.path("supported");
            if (claim == null || quote == null || !sup.isBoolean() || (source == null) == (text == null)) {
                bad.add(new Violation(Rule.INVALID_ARGUMENT, where, "needs text claim and quote, a boolean supported,"
                        + " and exactly one of source (a fact id) and source_text"));
                continue;
            }
            try {
                out.add(new LabelledClaim(claim, quote, source == null ? null : FactId.of(source), text,
                        sup.booleanValue()));
            } catch (IllegalArgumentException e) {
                bad.add(new Violation(Rule.INVALID_ARGUMENT, where, e.getMessage()));
            }
        }
        if (!bad.isEmpty()) {
            throw new RejectedException(bad);
        }
        return out;
    }
}
