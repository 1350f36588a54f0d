package dev.palimpsest.mcp;

import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;

/**
 * The prompts of the two common flows, each one user message that walks the agent through the
 * tools: {@value #RECALL} (recall before answering a question, citing fact ids) and
 * {@value #RECORD} (record a finding with its source and a verbatim quote). A missing required
 * argument is invalid params. Stateless.
 */
final class Prompts {
    static final String RECALL = "recall";
    static final String RECORD = "record";

    private Prompts() {}

    static List<SyncPromptSpecification> all() {
        McpSchema.Prompt recall = new McpSchema.Prompt(RECALL, "Recall before answering",
                "Answer a question from what the store knows: brief and search first, then answer citing fact ids.",
                List.of(new McpSchema.PromptArgument("question", "The question or topic to answer.", true),
                        new McpSchema.PromptArgument("entity", "An entity it is about (completes to known entities).",
                                false)));
        McpSchema.Prompt record = new McpSchema.Prompt(RECORD, "Record a finding with its source",
                "Write a finding as a claim that cites its source fact with a verbatim quote, storing the source first"
                        + " when it is new.",
                List.of(new McpSchema.PromptArgument("finding", "What you found, in a sentence.", true),
                        new McpSchema.PromptArgument("source", "The id of the source fact (completes to fact ids), or"
                                + " the source's text or reference when it is not stored yet.", true),
                        new McpSchema.PromptArgument("entity", "The entity the finding is about (completes to known"
                                + " entities).", false)));
        return List.of(new SyncPromptSpecification(recall, (ex, req) -> recall(req.arguments())),
                new SyncPromptSpecification(record, (ex, req) -> record(req.arguments())));
    }

    static McpSchema.GetPromptResult recall(Map<String, Object> args) {
        String question = required(args, "question");
        String entity = optional(args, "entity");
        String about = entity == null ? "" : " and entity [\"" + entity + "\"]";
        String text = "Before you answer, recall what Palimpsest knows.\n\n"
                + "Question: " + question + "\n" + (entity == null ? "" : "Entity: " + entity + "\n") + "\n"
                + "1. Call brief with query \"" + question + "\"" + about + " and max_tokens 1500. If it is thin, call"
                + " search with the same query" + (entity == null ? "" : " and entity") + " for more hits, and show"
                + " a fact before you rely on its details.\n"
                + "2. Answer from what you found. Cite the id of every fact you use, like [pmid-1].\n"
                + "3. Do not repeat a dead end (a superseded or retracted belief): say what replaced it. Where memory"
                + " holds a contradiction, say so and give each side with its id.\n"
                + "4. If memory has nothing on it, say so plainly before answering from anything else.";
        return message("Recall before answering: " + question, text);
    }

    static McpSchema.GetPromptResult record(Map<String, Object> args) {
        String finding = required(args, "finding");
        String source = required(args, "source");
        String entity = optional(args, "entity");
        String text = "Record this finding in Palimpsest with its source.\n\n"
                + "Finding: " + finding + "\nSource: " + source + "\n"
                + (entity == null ? "" : "Entity: " + entity + "\n") + "\n"
                + "1. The source must be a fact of the store. If the source above is not the id of one (show it to"
                + " check), assert it first: kind source, a readable id (doi-..., url-..., doc-...), and as body the"
                + " source's text, or its reference with the passages you rely on.\n"
                + "2. Call current and dead_ends on " + (entity == null ? "the entity" : "\"" + entity + "\"")
                + ": do not record what is already there, nor reassert a value the store has corrected.\n"
                + "3. Write the finding. A statement about an entity (subject, predicate, object): call claim with"
                + " sources [the source id] and quote, a verbatim passage of the source (12+ characters) that"
                + " supports it. Anything else: assert it (kind claim) with refs [the source id] and quotes"
                + " {\"<source id>\": \"<verbatim passage>\"}.\n"
                + "4. A quote-not-found rejection means the passage is not in the source as written: copy it exactly,"
                + " never paraphrase. If claim reports conflicts, supersede the claim that is wrong, or leave both"
                + " and say so.\n"
                + "5. Report the ids and the commit written.";
        return message("Record a finding: " + finding, text);
    }

    private static McpSchema.GetPromptResult message(String description, String text) {
        return new McpSchema.GetPromptResult(description,
                List.of(new McpSchema.PromptMessage(McpSchema.Role.USER, new McpSchema.TextContent(text))));
    }

    private static String required(Map<String, Object> args, String name) {
        String v = optional(args, name);
        if (v == null) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message("argument " + name + " is required")
                    .build();
        }
        return v;
    }

    private static String optional(Map<String, Object> args, String name) {
        Object v = args == null ? null : args.get(name);
        return v == null || v.toString().isBlank() ? null : v.toString().strip();
    }
}
