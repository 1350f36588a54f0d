package dev.palimpsest.model;

/**
 * The name of an actor (agent or person) that signs commits; matches {@code [a-z0-9][a-z0-9._-]{0,39}}.
 *
 * <p>Immutable and thread-safe; rejects null and malformed values with an {@link IllegalArgumentException}.
 */
public record ActorName(String value) {
    public ActorName {
        Ids.require("actor name", value, Ids.ACTOR, "[a-z0-9][a-z0-9._-]{0,39}");
    }

    public static ActorName of(String value) {
        return new ActorName(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
