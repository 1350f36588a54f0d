package dev.palimpsest.model;

import java.util.List;
import java.util.Objects;

/**
 * Exactly what a {@link Judge} is sent: the chat {@code messages} in order, and the {@code draw}
 * number (0 for a single question; 0..R-1 for R independent draws of the same question, so that a
 * cache keyed by the request keeps draws apart). Immutable and thread-safe; nothing may be null and
 * there is at least one message.
 */
public record JudgeRequest(List<Message> messages, int draw) {
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
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a judge request holds at least one message");
        }
        if (draw < 0) {
            throw new IllegalArgumentException("draw must not be negative, got " + draw);
        }
    }

    /** One user message and nothing else: no system prompt, no history. */
    public static JudgeRequest user(String content, int draw) {
        return new JudgeRequest(List.of(new Message("user", content)), draw);
    }
}
