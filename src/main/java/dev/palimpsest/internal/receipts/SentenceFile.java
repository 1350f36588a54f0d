package dev.palimpsest.internal.receipts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.palimpsest.internal.crypto.SecretMaterial;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A sentence-receipts file (CLI {@code --sentence-receipts}): a summary's sentences, each with its
 * receipt, in YAML or JSON, in the shape of an ingest batch's summary {@code sentences} (a list of
 * {@code {text, receipt}}, optionally under a top-level {@code sentences} key), or as a mapping from
 * each sentence to its bundles ({@code "AIM2 suppresses oral carcinoma.": [[a2]]}), in file order.
 * A receipt is a non-empty list of bundles, each a non-empty list of members ({@code ID} or
 * {@code ID@REV}), kept as text for the caller to resolve. Every problem is reported at once (rule
 * {@code invalid-argument}, subject the caller's argument). Immutable once parsed.
 */
public final class SentenceFile {
    /** One sentence and its bundles of member texts. */
    public record Entry(String text, List<List<String>> bundles) {}

    public final List<Entry> entries = new ArrayList<>();
    public final List<Violation> problems = new ArrayList<>();
    private final String subject;

    private SentenceFile(String subject) {
        this.subject = subject;
    }

    /** Parses {@code bytes}; problems (not exceptions) say what is wrong, naming {@code subject}. */
    public static SentenceFile parse(byte[] bytes, String subject) {
        SentenceFile f = new SentenceFile(subject);
        if (bytes.length > Limits.MAX_INGEST_FILE) {
            f.problems.add(new Violation(Rule.TOO_LARGE, subject, "the file is " + Limits.describe(bytes.length)
                    + ", over the limit of " + Limits.describe(Limits.MAX_INGEST_FILE)));
            return f;
        }
        String secret = SecretMaterial.inBytes(bytes);
        if (secret != null) {
            f.problems.add(new Violation(Rule.SECRET_MATERIAL, subject, secret + "; secret keys are never stored"));
            return f;
        }
        JsonNode root;
        try {
            root = BatchFile.readTree(bytes);
        } catch (IOException e) {
            f.problem("not valid " + (BatchFile.looksLikeJson(bytes) ? "JSON" : "YAML") + BatchFile.where(e) + ": "
                    + e.getMessage().lines().findFirst().orElse("").replaceAll(" \\(for .*\\)$", ""));
            return f;
        }
        if (root != null && root.isObject() && root.size() == 1 && root.has("sentences")
                && root.get("sentences").isArray() && (root.get("sentences").isEmpty()
                        || root.get("sentences").get(0).isObject())) {
            root = root.get("sentences");
        }
        if (root != null && root.isArray()) {
            int i = 0;
            for (JsonNode n : root) {
                i++;
                f.entry(n, "sentence #" + i);
            }
        } else if (root != null && root.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = root.fields();
            int i = 0;
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                i++;
                f.add(e.getKey(), e.getValue(), "sentence #" + i);
            }
        } else {
            f.problem("expected a list of {text, receipt} (as an ingest batch's summary sentences) or a mapping from"
                    + " each sentence to its bundles");
        }
        if (f.problems.isEmpty() && f.entries.isEmpty()) {
            f.problem("names no sentence");
        }
        return f;
    }

    private void entry(JsonNode n, String what) {
        if (!n.isObject()) {
            problem(what + ": each sentence is a mapping {text, receipt}");
            return;
        }
        Iterator<String> names = n.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!name.equals("text") && !name.equals("receipt")) {
                problem(what + ": unknown field '" + name + "'");
                return;
            }
        }
        JsonNode text = n.get("text");
        if (text == null || !text.isTextual()) {
            problem(what + ": missing field 'text' (a string)");
            return;
        }
        add(text.textValue(), n.get("receipt"), what);
    }

    private void add(String text, JsonNode receipt, String what) {
        if (text.isBlank()) {
            problem(what + ": the text is empty");
            return;
        }
        if (receipt == null || !receipt.isArray() || receipt.isEmpty()) {
            problem(what + ": receipt must be a non-empty list of bundles, e.g. [[a1], [a2, a3]]");
            return;
        }
        List<List<String>> bundles = new ArrayList<>();
        for (JsonNode b : receipt) {
            if (!b.isArray() || b.isEmpty()) {
                problem(what + ": each bundle must be a non-empty list of ids");
                return;
            }
            List<String> members = new ArrayList<>();
            for (JsonNode m : b) {
                if (!m.isValueNode() || m.isNull() || m.asText().isEmpty()) {
                    problem(what + ": a bundle member must be an id (ID or ID@REV), got " + m);
                    return;
                }
                members.add(m.asText());
            }
            bundles.add(members);
        }
        entries.add(new Entry(text, bundles));
    }

    private void problem(String msg) {
        problems.add(new Violation(Rule.INVALID_ARGUMENT, subject, msg));
    }
}
