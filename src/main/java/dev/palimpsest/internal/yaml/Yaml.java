package dev.palimpsest.internal.yaml;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.palimpsest.model.PalimpsestInternalException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

/** The one configured YAML mapper, and strict field access for decoders. Thread-safe. */
final class Yaml {
    static final YAMLMapper MAPPER = new YAMLMapper(YAMLFactory.builder()
            .loaderOptions(loaderOptions())
            .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                    .maxStringLength(64 << 20).build())
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build());
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Yaml() {}

    /** Reads every file a reader loads (up to 64 MiB), not only those under SnakeYAML's 3 MB default. */
    private static org.yaml.snakeyaml.LoaderOptions loaderOptions() {
        org.yaml.snakeyaml.LoaderOptions o = new org.yaml.snakeyaml.LoaderOptions();
        o.setCodePointLimit(64 << 20);
        return o;
    }

    static byte[] write(ObjectNode node) {
        try {
            return MAPPER.writeValueAsString(node).getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new PalimpsestInternalException("cannot encode YAML", e);
        }
    }

    static JsonNode read(byte[] bytes, String what) throws FormatException {
        try {
            JsonNode n = MAPPER.readTree(bytes);
            if (n == null || !n.isObject()) {
                throw new FormatException(what + ": expected a YAML mapping");
            }
            return n;
        } catch (java.io.IOException e) {
            throw new FormatException(what + ": not valid YAML: " + firstLine(e.getMessage()));
        }
    }

    static void onlyFields(JsonNode n, String what, String... allowed) throws FormatException {
        Set<String> ok = new HashSet<>(java.util.Arrays.asList(allowed));
        Iterator<String> names = n.fieldNames();
        while (names.hasNext()) {
            String f = names.next();
            if (!ok.contains(f)) {
                throw new FormatException(what + ": unknown field '" + f + "'");
            }
        }
    }

    static String text(JsonNode n, String field, String what, boolean required) throws FormatException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new FormatException(what + ": missing field '" + field + "'");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new FormatException(what + ": field '" + field + "' must be a string");
        }
        return v.textValue();
    }

    static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
