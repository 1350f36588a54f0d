package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Exactly what a {@link Judge} is sent: the chat {@code messages} in order, the {@code draw} number
 * (0 for a single question; 0..R-1 for R independent draws of the same question, so that a cache
 * keyed by the request keeps draws apart and a backend can seed each draw differently) and the
 * sampling {@code temperature} (empty: the backend's default). Immutable and thread-safe; nothing may
 * be null, there is at least one message and a temperature lies in [0, 2].
 */
public record JudgeRequest(List<Message> messages, int draw, OptionalDouble temperature) {
    /** One chat message: {@code role} ({@code user}, {@code system}, {@code assistant}) and its text. */
    public record Message(String role, String content) {
        public Message {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(content, "content");
            if (!role.equals("user") && !role.equals("system") && !role.equals("assistant")) {
                throw new IllegalArgumentException("role '" + role + "' is not user, system or assistant");
            }
        }
    }

    public JudgeRequest {
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        Objects.requireNonNull(temperature, "temperature");
        if (temperature.isPresent() && !(temperature.getAsDouble() >= 0.0 && temperature.getAsDouble() <= 2.0)) {
            throw new IllegalArgumentException("temperature must be in [0, 2], got " + temperature.getAsDouble());
        }
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a judge request holds at least one message");
        }
        if (draw < 0) {
            throw new IllegalArgumentException("draw must not be negative, got " + draw);
        }
    }

    /** A request at the backend's default temperature. */
    public JudgeRequest(List<Message> messages, int draw) {
        this(messages, draw, OptionalDouble.empty());
    }

    /** One user message and nothing else: no system prompt, no history; the backend's default temperature. */
    public static JudgeRequest user(String content, int draw) {
        return new JudgeRequest(List.of(new Message("user", content)), draw);
    }

    /** One user message sampled at {@code temperature}: draw {@code draw} of several independent ones. */
    public static JudgeRequest sampled(String content, int draw, double temperature) {
        return new JudgeRequest(List.of(new Message("user", content)), draw, OptionalDouble.of(temperature));
    }
}
