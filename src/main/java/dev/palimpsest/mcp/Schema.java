package dev.palimpsest.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the JSON schemas (as maps, serialised by the SDK's Jackson mapper) of tool inputs and
 * outputs. An input schema refuses unknown arguments; an output schema names every top-level field
 * with its type. Not thread-safe while building.
 */
final class Schema {
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();
    private final boolean closed;

    private Schema(boolean closed) {
        this.closed = closed;
    }

    /** An input schema: unknown arguments are refused. */
    static Schema input() {
        return new Schema(true);
    }

    /** An output schema: every field named is required; more may appear. */
    static Schema output() {
        return new Schema(false);
    }

    Schema string(String name, String description, boolean mandatory) {
        return put(name, mandatory, prop("string", description));
    }

    Schema bool(String name, String description) {
        return put(name, false, prop("boolean", description));
    }

    Schema integer(String name, String description, int minimum) {
        Map<String, Object> p = prop("integer", description);
        p.put("minimum", minimum);
        return put(name, false, p);
    }

    Schema integer(String name, String description, int minimum, int maximum) {
        Map<String, Object> p = prop("integer", description);
        p.put("minimum", minimum);
        p.put("maximum", maximum);
        return put(name, false, p);
    }

    Schema number(String name, String description, double minimum, double maximum) {
        Map<String, Object> p = prop("number", description);
        p.put("minimum", minimum);
        p.put("maximum", maximum);
        return put(name, false, p);
    }

    /** An array of strings; {@code minItems} 0 makes it optional. */
    Schema strings(String name, String description, int minItems) {
        Map<String, Object> p = prop("array", description);
        p.put("items", Map.of("type", "string"));
        if (minItems > 0) {
            p.put("minItems", minItems);
        }
        return put(name, minItems > 0, p);
    }

    /** An array of arrays of strings (receipt bundles); optional unless {@code minItems} is above 0. */
    Schema bundles(String name, String description, int minItems) {
        Map<String, Object> p = prop("array", description);
        Map<String, Object> bundle = new LinkedHashMap<>();
        bundle.put("type", "array");
        bundle.put("items", Map.of("type", "string"));
        p.put("items", bundle);
        if (minItems > 0) {
            p.put("minItems", minItems);
        }
        return put(name, minItems > 0, p);
    }

    /** An object whose values are strings (keys chosen by the caller). */
    Schema stringMap(String name, String description) {
        Map<String, Object> p = prop("object", description);
        p.put("additionalProperties", Map.of("type", "string"));
        return put(name, false, p);
    }

    /** An output field of {@code type} ("string", "array", ...), or of either type with "string|null". */
    Schema field(String name, String type) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", type.contains("|") ? List.of(type.split("\\|")) : type);
        return put(name, true, p);
    }

    /** An output field that may be absent. */
    Schema optionalField(String name, String type) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", type.contains("|") ? List.of(type.split("\\|")) : type);
        return put(name, false, p);
    }

    Map<String, Object> build() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", properties);
        if (!required.isEmpty()) {
            s.put("required", List.copyOf(required));
        }
        if (closed) {
            s.put("additionalProperties", false);
        }
        return s;
    }

    private Schema put(String name, boolean mandatory, Map<String, Object> p) {
        properties.put(name, p);
        if (mandatory) {
            required.add(name);
        }
        return this;
    }

    private static Map<String, Object> prop(String type, String description) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", type);
        p.put("description", description);
        return p;
    }
}
