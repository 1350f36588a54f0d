package dev.palimpsest.mcp;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Text;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The arguments of one tool call, read by name and turned into model values. The SDK has already
 * checked them against the tool's input schema; what a schema cannot say (a malformed fact id, an
 * empty text) is a rejection naming the argument, rule {@code invalid-argument}, as on the command
 * line; text holding a lone UTF-16 surrogate (JSON can spell one, {@code "\ud800"}) is rule
 * {@code invalid-text}, naming the argument. Not thread-safe; one per call.
 */
final class Args {
    private final Map<String, Object> raw;

    Args(Map<String, Object> raw) {
        this.raw = raw == null ? Map.of() : raw;
    }

    /** A text argument the schema requires; empty text is refused. */
    String text(String name) throws RejectedException {
        String s = optText(name);
        if (s == null) {
            throw invalid(name, "is required");
        }
        return s;
    }

    /** A text argument, or null when absent; empty text is refused. */
    String optText(String name) throws RejectedException {
        Object v = raw.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw invalid(name, "must be a string");
        }
        if (s.isEmpty()) {
            throw invalid(name, "must not be empty");
        }
        return wellFormed(name, s);
    }

    boolean flag(String name) throws RejectedException {
        Object v = raw.get(name);
        if (v == null) {
            return false;
        }
        if (!(v instanceof Boolean b)) {
            throw invalid(name, "must be true or false");
        }
        return b;
    }

    int count(String name, int absent) throws RejectedException {
        Object v = raw.get(name);
        if (v == null) {
            return absent;
        }
        if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.doubleValue() < 0
                || n.doubleValue() > Integer.MAX_VALUE) {
            throw invalid(name, "must be a whole number >= 0");
        }
        return n.intValue();
    }

    Double number(String name) throws RejectedException {
        Object v = raw.get(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Number n)) {
            throw invalid(name, "must be a number");
        }
        return n.doubleValue();
    }

    /** A list of texts; empty when absent. */
    List<String> texts(String name) throws RejectedException {
        Object v = raw.get(name);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> l)) {
            throw invalid(name, "must be an array of strings");
        }
        List<String> out = new ArrayList<>();
        for (Object o : l) {
            if (!(o instanceof String s) || s.isEmpty()) {
                throw invalid(name, "must hold non-empty strings only");
            }
            out.add(wellFormed(name, s));
        }
        return out;
    }

    /** A list of lists of texts (receipt bundles), in the order given; empty when absent. */
    List<List<String>> bundles(String name) throws RejectedException {
        Object v = raw.get(name);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> l)) {
            throw invalid(name, "must be an array of bundles, each an array of ids");
        }
        List<List<String>> out = new ArrayList<>();
        for (Object o : l) {
            if (!(o instanceof List<?> b)) {
                throw invalid(name, "must be an array of bundles, each an array of ids");
            }
            List<String> members = new ArrayList<>();
            for (Object m : b) {
                if (!(m instanceof String s) || s.isEmpty()) {
                    throw invalid(name, "must hold non-empty ids only");
                }
                members.add(wellFormed(name, s));
            }
            out.add(members);
        }
        return out;
    }

    /** True when the argument is given. */
    boolean has(String name) {
        return raw.get(name) != null;
    }

    /** An object of texts, keys in the order given; empty when absent. */
    Map<String, String> textMap(String name) throws RejectedException {
        Object v = raw.get(name);
        if (v == null) {
            return Map.of();
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw invalid(name, "must be an object of strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (!(e.getValue() instanceof String s) || s.isEmpty()) {
                throw invalid(name, "must map each key to a non-empty string");
            }
            out.put(wellFormed(name, String.valueOf(e.getKey())), wellFormed(name, s));
        }
        return out;
    }

    FactId fact(String name) throws RejectedException {
        return parse(name, text(name), FactId::of);
    }

    FactId optFact(String name) throws RejectedException {
        String s = optText(name);
        return s == null ? null : parse(name, s, FactId::of);
    }

    List<FactId> facts(String name) throws RejectedException {
        List<FactId> out = new ArrayList<>();
        for (String s : texts(name)) {
            out.add(parse(name, s, FactId::of));
        }
        return out;
    }

    Kind kind(String name, String absent) throws RejectedException {
        String s = optText(name);
        return parse(name, s == null ? absent : s, Kind::of);
    }

    /** An ISO-8601 instant ({@code 2027-01-01T00:00:00Z}), or null when absent. */
    java.time.Instant optInstant(String name) throws RejectedException {
        String s = optText(name);
        try {
            return s == null ? null : java.time.Instant.parse(s);
        } catch (java.time.format.DateTimeParseException e) {
            throw invalid(name, "'" + s + "' is not an ISO-8601 instant");
        }
    }

    /**
     * The commit {@code at} names: a time (an ISO-8601 instant or date, as a year-month-day start
     * shows) means the last commit of main dated at or before it (not-found when the store's history
     * starts later); anything else is a revision git understands; main's tip when absent.
     */
    CommitId at(Store store) throws RejectedException, NotFoundException {
        String s = optText("at");
        if (s == null) {
            return store.head();
        }
        if (!TIME.matcher(s).lookingAt()) {
            return store.resolve(s);
        }
        java.time.Instant asOf = optValidTime("at");
        return store.commitAsOf(asOf).orElseThrow(() -> new NotFoundException("no commit of main is dated at or"
                + " before " + asOf + ": the store's history starts later"));
    }

    /** How a time starts: four digits, a dash, two digits, a dash (no revision git names looks so). */
    private static final java.util.regex.Pattern TIME = java.util.regex.Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

    /**
     * An optional validity as writers give it: {@code FROM/UNTIL} (ISO-8601 interval; either side
     * may be left empty for an open bound; no slash: FROM only), each an instant or a date; null when
     * absent. Rejected under {@code valid-time-malformed} naming the argument.
     */
    java.time.Instant[] optValidity(String name) throws RejectedException {
        String s = optText(name);
        if (s == null) {
            return null;
        }
        int slash = s.indexOf('/');
        String from = slash < 0 ? s : s.substring(0, slash);
        String until = slash < 0 ? "" : s.substring(slash + 1);
        try {
            return new java.time.Instant[] {from.isBlank() ? null : dev.palimpsest.model.Validity.parse(name, from),
                until.isBlank() ? null : dev.palimpsest.model.Validity.parse(name, until)};
        } catch (dev.palimpsest.model.ValidTimeException e) {
            throw new RejectedException(e.rule(), name, e.getMessage());
        }
    }

    /** An optional time as writers give it (ISO-8601 instant or date, its start in UTC); {@code valid-time-malformed} otherwise. */
    java.time.Instant optValidTime(String name) throws RejectedException {
        String s = optText(name);
        if (s == null) {
            return null;
        }
        try {
            return dev.palimpsest.model.Validity.parse(name, s);
        } catch (dev.palimpsest.model.ValidTimeException e) {
            throw new RejectedException(e.rule(), name, e.getMessage());
        }
    }

    static <T> T parse(String name, String value, Function<String, T> of) throws RejectedException {
        try {
            return of.apply(value);
        } catch (IllegalArgumentException e) {
            throw invalid(name, e.getMessage());
        }
    }

    /** {@code s}; refused (rule {@code invalid-text}, naming the argument) when it holds a lone surrogate. */
    private static String wellFormed(String name, String s) throws RejectedException {
        java.util.Optional<String> bad = s == null ? java.util.Optional.empty() : Text.findProblem("the text", s);
        if (bad.isPresent()) {
            throw new RejectedException(Rule.INVALID_TEXT, name, bad.get());
        }
        return s;
    }

    static RejectedException invalid(String name, String message) {
        return new RejectedException(Rule.INVALID_ARGUMENT, name, message);
    }
}
