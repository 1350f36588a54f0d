package dev.palimpsest.internal.audit;

import dev.palimpsest.model.Rule;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The trailers agree with the tree change: {@code Palimpsest-Actor} names the author, and each
 * {@code Palimpsest-Op} with its subject accounts for exactly the paths that operation changes
 * (see store-layout.md); a changed path no operation accounts for is unexplained. Stateless.
 */
final class TrailerCheck implements AuditCheck {
    private static final String PREFIX = "Palimpsest-";
    private static final String ACTOR = "Palimpsest-Actor";
    private static final String OP = "Palimpsest-Op";
    private static final String FACT = "Palimpsest-Fact";
    private static final String KEY = "Palimpsest-Key";
    private static final String RUN = "Palimpsest-Run";

    private record Op(String verb, String key, String subject) {
        String label() {
            return "'" + verb + " " + subject + "'";
        }
    }

    @Override
    public void check(AuditedCommit c) {
        Set<String> claimed = new HashSet<>();
        List<RawCommit.Trailer> ts = palimpsestTrailers(c);
        if (ts.isEmpty()) {
            c.violation(null, Rule.BAD_TRAILERS, "the message has no Palimpsest trailers");
        } else {
            for (Op op : ops(c, ts)) {
                expect(c, op, claimed);
            }
        }
        for (Change ch : c.changes()) {
            if (!claimed.contains(ch.path()) && !c.explainedElsewhere(ch.path())) {
                c.violation(ch.path(), Rule.UNEXPLAINED_CHANGE, "the file was " + word(ch.kind())
                        + " but no Palimpsest-Op trailer accounts for it");
            }
        }
    }

    /** The Palimpsest trailers but the runs, which it checks here. */
    private static List<RawCommit.Trailer> palimpsestTrailers(AuditedCommit c) {
        List<RawCommit.Trailer> ts = new ArrayList<>();
        for (RawCommit.Trailer t : c.raw().trailers()) {
            if (t.key().equals(RUN)) {
                // the agent run of the facts written: any number, right after the actor, each a valid run
                if (ts.size() != 1 || !ts.get(0).key().equals(ACTOR) || !dev.palimpsest.model.Fact.validRun(t.value())) {
                    c.violation(null, Rule.BAD_TRAILERS, "trailer '" + t.key() + ": " + t.value()
                            + "' is not a valid run right after " + ACTOR);
                }
                continue;
            }
            if (t.key().startsWith(PREFIX)) {
                ts.add(t);
            }
        }
        return ts;
    }

    /** The operations of a non-empty list of Palimpsest trailers. */
    private static List<Op> ops(AuditedCommit c, List<RawCommit.Trailer> ts) {
        List<Op> ops = new ArrayList<>();
        String author = c.raw().author() == null ? null : c.raw().author().name();
        if (!ts.get(0).key().equals(ACTOR)) {
            c.violation(null, Rule.BAD_TRAILERS, "the first trailer is " + ts.get(0).key() + ", not " + ACTOR);
        } else if (!ts.get(0).value().equals(author)) {
            c.violation(null, Rule.TRAILER_MISMATCH, ACTOR + " is '" + ts.get(0).value() + "' but the author is '"
                    + author + "'");
        }
        Set<String> subjects = new HashSet<>();
        int first = ts.get(0).key().equals(ACTOR) ? 1 : 0;
        if (first >= ts.size()) {
            c.violation(null, Rule.BAD_TRAILERS, "the message names no operation");
        }
        for (int i = first; i < ts.size(); i++) {
            RawCommit.Trailer t = ts.get(i);
            if (!t.key().equals(OP) || i + 1 >= ts.size()) {
                c.violation(null, Rule.BAD_TRAILERS, "trailer '" + t.key() + ": " + t.value()
                        + "' is not a Palimpsest-Op followed by its subject");
                continue;
            }
            RawCommit.Trailer s = ts.get(++i);
            Op op = new Op(t.value(), s.key(), s.value());
            if (!validSubject(op)) {
                c.violation(null, Rule.BAD_TRAILERS, "operation " + op.label() + " has subject trailer " + s.key()
                        + ", which is not a valid subject for it");
            } else if (!subjects.add(op.key() + ":" + op.subject())) {
                c.violation(null, Rule.TRAILER_MISMATCH, op.subject() + " is the subject of more than one operation");
            } else {
                ops.add(op);
            }
        }
        return ops;
    }

    private static boolean validSubject(Op op) {
        try {
            switch (op.verb()) {
                case "init":
                case "key-add":
                case "key-revoke":
                    return op.key().equals(KEY) && ActorName.of(op.subject()) != null;
                case "assert":
                case "supersede":
                case "revise":
                case "retract":
                case "forget":
                    return op.key().equals(FACT) && FactId.of(op.subject()) != null;
                case "configure":
                    return op.key().equals("Palimpsest-Config") && op.subject().equals(StorePaths.CONFIG);
                default:
                    return false;
            }
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static void expect(AuditedCommit c, Op op, Set<String> claimed) {
        boolean genesis = c.parent() == null;
        if (genesis != op.verb().equals("init")) {
            c.violation(null, Rule.TRAILER_MISMATCH, "operation " + op.label()
                    + (genesis ? " in the genesis commit, which may only init" : " outside the genesis commit"));
            return;
        }
        switch (op.verb()) {
            case "init":
                path(c, op, claimed, StorePaths.CONFIG, EnumSet.of(Change.Kind.ADDED), "added");
                keyFiles(c, op, claimed, Change.Kind.ADDED);
                break;
            case "key-add":
                keyFiles(c, op, claimed, Change.Kind.ADDED);
                break;
            case "key-revoke":
                keyFiles(c, op, claimed, Change.Kind.DELETED);
                break;
            case "assert":
            case "supersede": // an assert whose fact supersedes another; written as assert before the verb existed
                factFile(c, op, claimed, Change.Kind.ADDED);
                Change r = c.change(StorePaths.retractionPath(FactId.of(op.subject())));
                if (r != null) {
                    path(c, op, claimed, r.path(), EnumSet.of(Change.Kind.DELETED), "removed (a re-add)");
                }
                break;
            case "revise":
                factFile(c, op, claimed, Change.Kind.MODIFIED);
                break;
            case "configure":
                path(c, op, claimed, StorePaths.CONFIG, EnumSet.of(Change.Kind.MODIFIED), "rewritten");
                break;
            case "retract":
                factFile(c, op, claimed, Change.Kind.DELETED);
                path(c, op, claimed, StorePaths.retractionPath(FactId.of(op.subject())),
                        EnumSet.of(Change.Kind.ADDED, Change.Kind.MODIFIED), "written");
                break;
            case "forget":
                forgetFiles(c, op, claimed);
                break;
            default:
                throw new IllegalStateException("unchecked verb " + op.verb());
        }
    }

    /**
     * A forget adds the fact's tombstone (never modified or removed later: such a change is
     * unexplained) and removes the fact's file when it was live at the parent.
     */
    private static void forgetFiles(AuditedCommit c, Op op, Set<String> claimed) {
        FactId id = FactId.of(op.subject());
        path(c, op, claimed, StorePaths.tombstonePath(id), EnumSet.of(Change.Kind.ADDED), "added");
        for (String p : StorePaths.candidatePaths(id)) {
            Change ch = c.change(p);
            if (ch != null) {
                path(c, op, claimed, p, EnumSet.of(Change.Kind.DELETED), "removed");
                return;
            }
        }
        try {
            for (String p : StorePaths.candidatePaths(id)) {
                if (c.parentBlobAt(p) != null) {
                    c.violation(p, Rule.TRAILER_MISMATCH, "operation " + op.label()
                            + " leaves the forgotten fact's file in the tree");
                }
            }
        } catch (java.io.IOException e) {
            c.violation(null, Rule.UNREADABLE, e.getMessage());
        }
    }

    private static void keyFiles(AuditedCommit c, Op op, Set<String> claimed, Change.Kind kind) {
        ActorName name = ActorName.of(op.subject());
        String w = kind == Change.Kind.ADDED ? "added" : "removed";
        path(c, op, claimed, StorePaths.keyPath(name), EnumSet.of(kind), w);
        path(c, op, claimed, StorePaths.keyInfoPath(name), EnumSet.of(kind), w);
    }

    /** Claims the one fact file of the subject changed in {@code kind}; reports when there is none. */
    private static void factFile(AuditedCommit c, Op op, Set<String> claimed, Change.Kind kind) {
        List<String> candidates = StorePaths.candidatePaths(FactId.of(op.subject()));
        String seen = null;
        for (String p : candidates) {
            Change ch = c.change(p);
            if (ch != null && ch.kind() == kind) {
                claimed.add(p);
                return;
            }
            if (ch != null) {
                seen = p;
            }
        }
        String path = seen != null ? seen : candidates.get(0);
        Change ch = c.change(path);
        c.violation(path, Rule.TRAILER_MISMATCH, "operation " + op.label() + " says the fact's file was "
                + word(kind) + ", but " + (ch == null ? "the commit does not change it" : "it was " + word(ch.kind())));
    }

    private static void path(AuditedCommit c, Op op, Set<String> claimed, String path, Set<Change.Kind> kinds,
            String expected) {
        Change ch = c.change(path);
        if (ch != null && kinds.contains(ch.kind())) {
            claimed.add(path);
            return;
        }
        c.violation(path, Rule.TRAILER_MISMATCH, "operation " + op.label() + " says this file was " + expected
                + ", but " + (ch == null ? "the commit does not change it" : "it was " + word(ch.kind())));
    }

    private static String word(Change.Kind k) {
        switch (k) {
            case ADDED:
                return "added";
            case MODIFIED:
                return "modified";
            default:
                return "removed";
        }
    }
}
