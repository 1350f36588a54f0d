package dev.palimpsest.mcp;

import java.util.Map;

/**
 * One tool as the server lists it: its name, a description written for a model choosing among the
 * tools, input and output schemas, hints (read-only, destructive) and the handler that answers a
 * call with the structured content. A {@code prose} tool's handler puts its answer's text under
 * {@value #TEXT}: that text is the call's text content and is left out of the structured content,
 * so the answer says it once; other tools' text content is their structured content as JSON.
 * Immutable.
 */
record ToolDef(String name, String title, String description, Map<String, Object> input, Map<String, Object> output,
        boolean readOnly, boolean destructive, boolean prose, boolean openWorld, Handler handler) {
    static final String TEXT = "text";

    ToolDef(String name, String title, String description, Map<String, Object> input, Map<String, Object> output,
            boolean readOnly, boolean destructive, boolean prose, Handler handler) {
        this(name, title, description, input, output, readOnly, destructive, prose, false, handler);
    }

    /** Answers one call: the structured content of the result, or an exception the server turns into a tool error. */
    @FunctionalInterface
    interface Handler {
        Map<String, Object> call(Args args) throws Exception;
    }

    static ToolDef read(String name, String title, String description, Schema input, Schema output, Handler h) {
        return new ToolDef(name, title, description, input.build(), output.build(), true, false, false, h);
    }

    /** A read whose answer is prose under {@value #TEXT} beside its structured fields. */
    static ToolDef prose(String name, String title, String description, Schema input, Schema output, Handler h) {
        return new ToolDef(name, title, description, input.build(), output.build(), true, false, true, h);
    }

    /** A read that asks the server's judge, a model outside the store (an open world). */
    static ToolDef judged(String name, String title, String description, Schema input, Schema output, Handler h) {
        return new ToolDef(name, title, description, input.build(), output.build(), true, false, false, true, h);
    }

    static ToolDef write(String name, String title, String description, Schema input, Schema output, boolean destructive,
            Handler h) {
        return new ToolDef(name, title, description, input.build(), output.build(), false, destructive, false, h);
    }
}
