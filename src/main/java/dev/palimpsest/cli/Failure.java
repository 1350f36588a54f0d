package dev.palimpsest.cli;

import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.ParameterException;

/**
 * Why a command failed, as one value: exit code, kind, message and (for a rejection) every
 * violation. Printed as text on stderr, or with {@code --json} as exactly one object on stdout:
 * <pre>{"error": {"exit": 5, "kind": "rejected", "message": "...",
 *            "violations": [{"rule": "...", "subject": "...", "fact": "..." or null, "message": "..."}]}}</pre>
 */
record Failure(int exit, String kind, String message, List<Violation> violations) {
    /** Frames of an internal error's innermost cause that its message carries (for a bug report). */
    static final int TRACE_FRAMES = 12;

    static Failure of(Throwable ex) {
        if (ex instanceof ParameterException || ex instanceof Main.UsageException) {
            return new Failure(Main.USAGE, "usage", ex.getMessage(), List.of());
        }
        if (ex instanceof Main.NoStoreException) {
            return new Failure(Main.NO_STORE, "no-store", ex.getMessage(), List.of());
        }
        if (ex instanceof NotFoundException) {
            return new Failure(Main.NOT_FOUND, "not-found", ex.getMessage(), List.of());
        }
        if (ex instanceof ConflictException) {
            return new Failure(Main.CONFLICT, "conflict", ex.getMessage() + " (nothing was written; retry)", List.of());
        }
        if (ex instanceof dev.palimpsest.model.MergeRefusedException r) {
            List<Violation> vs = r.violations().stream().map(Failure::saidOnce).toList();
            return new Failure(Main.AUDIT_VIOLATIONS, "refused", "refused: nothing adopted; the merge commit would break "
                    + (vs.size() == 1 ? "a rule: " + text(vs.get(0)) : vs.size() + " rules"), vs);
        }
        if (ex instanceof RejectedException r) {
            List<Violation> vs = r.violations().stream().map(Failure::saidOnce).toList();
            String msg = vs.size() == 1 ? "rejected: " + text(vs.get(0))
                    : "rejected with " + vs.size() + " violations";
            return new Failure(Main.REJECTED, "rejected", msg, vs);
        }
        if (ex instanceof dev.palimpsest.model.EmbedderUnavailableException e) {
            return new Failure(Main.JUDGE_UNAVAILABLE, e.kind(), ex.getMessage() + " (nothing was written)", List.of());
        }
        if (ex instanceof dev.palimpsest.model.JudgeUnavailableException j) {
            return new Failure(Main.JUDGE_UNAVAILABLE, j.kind(), ex.getMessage() + " (nothing was written)",
                    List.of());
        }
        StringBuilder msg = new StringBuilder(ex instanceof PalimpsestInternalException && ex.getMessage() != null
                ? ex.getMessage() : ex.toString());
        Throwable root = ex;
        for (Throwable c = ex.getCause(); c != null; c = c.getCause()) {
            msg.append("\n  caused by: ").append(c);
            root = c;
        }
        StackTraceElement[] frames = root.getStackTrace();
        for (int i = 0; i < Math.min(TRACE_FRAMES, frames.length); i++) {
            msg.append("\n    at ").append(frames[i]);
        }
        if (frames.length > TRACE_FRAMES) {
            msg.append("\n    ... ").append(frames.length - TRACE_FRAMES).append(" more");
        }
        return new Failure(Main.INTERNAL, "internal", msg.toString(), List.of());
    }

    /**
     * A rejection of a write whose new fact got an id nobody chose: the violations say "new fact"
     * instead of the minted id.
     */
    static RejectedException unminted(RejectedException e, FactId minted) {
        if (minted == null) {
            return e;
        }
        String id = minted.value();
        List<Violation> vs = new ArrayList<>();
        for (Violation given : e.violations()) {
            Violation v = saidOnce(given);
            String subject = v.subject().equals("fact " + id) ? "new fact" : v.subject().replace(id, "new fact");
            vs.add(new Violation(v.rule(), subject, v.message().replace("fact " + id, "the new fact")
                    .replace(id, "the new fact")));
        }
        return new RejectedException(vs);
    }

    /** Prints this failure: JSON on {@code out}, or text on {@code err}. */
    void print(java.io.PrintWriter out, java.io.PrintWriter err, boolean json) {
        if (json) {
            Context.printJson(out, Map.of("error", json()));
            return;
        }
        String prefix = exit == Main.INTERNAL ? "internal error: " : "error: ";
        err.println(Render.safe(prefix + message));
        if (violations.size() > 1) {
            for (Violation v : violations) {
                err.println(Render.safe("  - " + text(v)));
            }
        }
    }

    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("exit", exit);
        m.put("kind", kind);
        m.put("message", message);
        List<Map<String, Object>> vs = new ArrayList<>();
        for (Violation v : violations) {
            Map<String, Object> vm = new LinkedHashMap<>();
            vm.put("rule", rule(v));
            vm.put("subject", v.subject());
            vm.put("fact", fact(v.subject()));
            vm.put("message", v.message());
            vs.add(vm);
        }
        m.put("violations", vs);
        return m;
    }

    /** The rule id of a violation, as printed. */
    static String rule(Violation v) {
        return String.valueOf(v.rule());
    }

    private static String text(Violation v) {
        return v.subject() + ": " + v.message() + " [" + rule(v) + "]";
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
