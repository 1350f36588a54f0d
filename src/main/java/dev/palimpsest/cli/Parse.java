package dev.palimpsest.cli;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.RejectedException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Turns command-line strings into model values; a malformed value is a rejection naming the option
 * (exit 5), so an {@link IllegalArgumentException} that escapes a command is a bug (exit 1).
 */
final class Parse {
    /** Rule id: a command-line value is malformed (a fact id, kind or actor name). */
    static final Rule INVALID_ARGUMENT = Rule.INVALID_ARGUMENT;

    private Parse() {}

    static FactId fact(String option, String value) throws RejectedException {
        return value == null ? null : parse(option, value, FactId::of);
    }

    static List<FactId> facts(String option, List<String> values) throws RejectedException {
        List<FactId> out = new ArrayList<>();
        for (String v : values) {
            out.add(fact(option, v));
        }
        return out;
    }

    static Kind kind(String value) throws RejectedException {
        return parse("--kind", value, Kind::of);
    }

    static ActorName actor(String option, String value) throws RejectedException {
        return parse(option, value, ActorName::of);
    }

    static KeyRole keyRole(String value) throws RejectedException {
        try {
            return KeyRole.parse(value);
        } catch (IllegalArgumentException e) {
            throw new RejectedException(Rule.INVALID_ROLE, "--role", e.getMessage());
        }
    }

    private static <T> T parse(String option, String value, Function<String, T> of) throws RejectedException {
        try {
            return of.apply(value);
        } catch (IllegalArgumentException e) {
            throw new RejectedException(INVALID_ARGUMENT, option, e.getMessage());
        }
    }
}
