package dev.palimpsest.internal.judge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.JudgeRequest;
import dev.palimpsest.model.Verdict;

/**
 * The fail-closed reviewer: the {@link Anchor} runs first and a quote it refuses never reaches the
 * model; otherwise the reviewer gets one user message (no system prompt, no history) holding the
 * claim, the matched evidence verbatim and a window of {@link #CONTEXT_CHARS} characters either side
 * cut mechanically from the source. Only a reply that is exactly one JSON object (surrounding
 * whitespace aside: nothing after it, no key twice) whose {@code supported} is the JSON boolean
 * {@code true} accepts; an unparseable or ambiguous reply, a missing field, or a string or number
 * where the boolean belongs fails closed with the reason. Stateless; arguments must not be null.
 */
public final class Reviewer {
    public static final int CONTEXT_CHARS = 240;
    public static final String UNPARSEABLE = Verdict.UNPARSEABLE;
    public static final String NOT_BOOLEAN = Verdict.NOT_BOOLEAN;
    /** Exactly one JSON value with nothing after it, and no key twice: anything ambiguous fails closed. */
    private static final ObjectMapper JSON = com.fasterxml.jackson.databind.json.JsonMapper.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private Reviewer() {}

    /** The verdict on {@code claim} citing {@code quote} from {@code source}. */
    public static Verdict verify(Judge reviewer, String claim, String quote, String source) {
        String problem = Anchor.problem(quote, source);
        if (problem != null) {
            return new Verdict(false, false, null, problem);
        }
        Anchor.Span span = Anchor.find(quote, source);
        String reply = reviewer.complete(JudgeRequest.user(prompt(claim, source, span), 0));
        return judged(reply);
    }

    /** The one message the reviewer receives for a claim whose quote matched {@code span} of {@code source}. */
    public static String prompt(String claim, String source, Anchor.Span span) {
        String evidence = source.substring(span.start(), span.end());
        String context = source.substring(Math.max(0, span.start() - CONTEXT_CHARS),
                Math.min(source.length(), span.end() + CONTEXT_CHARS));
        return "You are verifying a single claim against its cited evidence. Judge ONLY whether the evidence"
                + " supports the claim. The surrounding source context is included: if it negates, reverses, or"
                + " otherwise contradicts what the quote alone implies, the claim is NOT supported.\n"
                + "Claim: " + claim + "\n"
                + "Evidence (verbatim from source): " + evidence + "\n"
                + "Surrounding source context: " + context + "\n"
                + "Reply with JSON: {\"supported\": true|false, \"reason\": \"...\"}";
    }

    /** True when {@code reply} is a well-formed verdict (one JSON object whose {@code supported} is a boolean). */
    public static boolean parseable(String reply) {
        String why = judged(reply).reason();
        return !UNPARSEABLE.equals(why) && !NOT_BOOLEAN.equals(why);
    }

    /** The verdict a reply gives a claim whose quote is anchored. */
    public static Verdict judged(String reply) {
        JsonNode n;
        try {
            n = JSON.readTree(reply);
        } catch (java.io.IOException | RuntimeException e) {
            n = null;
        }
        if (n == null || !n.isObject() || !n.has("supported")) {
            return new Verdict(false, true, false, UNPARSEABLE);
        }
        JsonNode s = n.get("supported");
        if (!s.isBoolean()) {
            return new Verdict(false, true, false, NOT_BOOLEAN);
        }
        JsonNode r = n.get("reason");
        String reason = r != null && r.isTextual() && !r.asText().isBlank() ? r.asText() : null;
        boolean ok = s.booleanValue();
        return new Verdict(ok, true, ok, reason);
    }
}
