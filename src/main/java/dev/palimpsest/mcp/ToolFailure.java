package dev.palimpsest.mcp;

import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Why a tool call failed, as the object {@code {"error": {exit, kind, message, violations}}} that the
 * CLI prints with {@code --json}: the same kinds and exit codes (4 not-found, 5 rejected with every
 * violation and its rule id, 7 conflict, 8 judge-unavailable, 1 internal), so a model reads one contract. Immutable.
 */
record ToolFailure(int exit, String kind, String message, List<Violation> violations) {

    static ToolFailure of(Throwable ex) {
        if (ex instanceof NotFoundException) {
            return new ToolFailure(4, "not-found", ex.getMessage(), List.of());
        }
        if (ex instanceof ConflictException) {
            return new ToolFailure(7, "conflict", ex.getMessage() + " (nothing was written; retry)", List.of());
        }
        if (ex instanceof RejectedException r) {
            List<Violation> vs = r.violations().stream().map(ToolFailure::saidOnce).toList();
            String msg = vs.size() == 1 ? "rejected: " + text(vs.get(0)) : "rejected with " + vs.size() + " violations";
            return new ToolFailure(5, "rejected", msg, vs);
        }
        if (ex instanceof dev.palimpsest.model.JudgeUnavailableException j) {
            return new ToolFailure(8, j.kind(), ex.getMessage() + " (nothing was written)", List.of());
        }
        StringBuilder msg = new StringBuilder(ex instanceof PalimpsestInternalException && ex.getMessage() != null
                ? ex.getMessage() : ex.toString());
        for (Throwable c = ex.getCause(); c != null; c = c.getCause()) {
            msg.append("\n  caused by: ").append(c);
        }
        return new ToolFailure(1, "internal", msg.toString(), List.of());
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("exit", exit);
        m.put("kind", kind);
        m.put("message", message);
        List<Map<String, Object>> vs = new ArrayList<>();
        for (Violation v : violations) {
            Map<String, Object> vm = new LinkedHashMap<>();
            vm.put("rule", v.rule().id());
            vm.put("subject", v.subject());
            vm.put("fact", fact(v.subject()));
            vm.put("message", v.message());
            vs.add(vm);
        }
        m.put("violations", vs);
        return Map.of("error", m);
    }

    private static String text(Violation v) {
        return v.subject() + ": " + v.message() + " [" + v.rule().id() + "]";
    }

    /** The fact a violation concerns: {@code fact X} names X; {@code ref X -> Y} names the referrer X. */
    static String fact(String subject) {
        if (subject.startsWith("fact ")) {
            return subject.substring(5);
        }
        if (subject.startsWith("ref ") && subject.contains(" -> ") && !subject.startsWith("ref -> ")) {
            String referrer = subject.substring(4, subject.indexOf(" -> "));
            return referrer.equals("new fact") ? null : referrer;
        }
        return null;
    }

    /** The violation without its subject repeated at the head of its message. */
    private static Violation saidOnce(Violation v) {
        String msg = v.message();
        while (msg.startsWith(v.subject() + ": ")) {
            msg = msg.substring(v.subject().length() + 2);
        }
        return msg.equals(v.message()) ? v : new Violation(v.rule(), v.subject(), msg);
    }
}
