package dev.palimpsest.internal.write;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The size limits of {@link Limits} on the write path: the operations of a transaction before the
 * gate runs (count, body sizes, quote lengths), and the files of its plan before any object is written (each file,
 * the total). Every violation is listed; rule {@link Limits#TOO_LARGE}. Stateless.
 */
final class WriteLimits {
    private WriteLimits() {}

    static void checkOperations(List<Operation> ops) throws RejectedException {
        List<Violation> vs = new ArrayList<>();
        if (ops.size() > Limits.MAX_OPERATIONS) {
            vs.add(new Violation(Rule.TOO_LARGE, "transaction", ops.size() + " operations, over the limit of "
                    + Limits.MAX_OPERATIONS + " per commit"));
        }
        for (Operation op : ops) {
            List<RefSpec> refs = op instanceof Operation.Assert a ? a.refs()
                    : op instanceof Operation.Revise r ? r.addRefs() : List.of();
            for (RefSpec ref : refs) {
                if (ref.quote() != null && ref.quote().length() > Limits.MAX_QUOTE) {
                    vs.add(new Violation(Rule.TOO_LARGE, "fact " + subject(op) + ", ref " + ref.target(), "quote is "
                            + ref.quote().length() + " characters, over the limit of " + Limits.MAX_QUOTE));
                }
            }
            String body = op instanceof Operation.Assert a ? a.body()
                    : op instanceof Operation.Revise r ? r.body()
                    : op instanceof Operation.Reground g ? g.body() : null;
            if (body == null || body.length() * 3L <= Limits.MAX_BODY) {
                continue;
            }
            long bytes = utf8Length(body);
            if (bytes > Limits.MAX_BODY) {
                vs.add(new Violation(Rule.TOO_LARGE, "fact " + subject(op), "body is " + Limits.describe(bytes)
                        + ", over the limit of " + Limits.describe(Limits.MAX_BODY)));
            }
        }
        if (!vs.isEmpty()) {
            throw new RejectedException(vs);
        }
    }

    static void checkFiles(Map<String, byte[]> files) throws RejectedException {
        List<Violation> vs = new ArrayList<>();
        long total = 0;
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            if (f.getValue() == null) {
                continue;
            }
            total += f.getValue().length;
            if (f.getValue().length > Limits.MAX_FILE) {
                vs.add(new Violation(Rule.TOO_LARGE, f.getKey(), "the file would be "
                        + Limits.describe(f.getValue().length) + ", over the limit of "
                        + Limits.describe(Limits.MAX_FILE) + " per file"));
            }
        }
        if (total > Limits.MAX_TRANSACTION_BYTES) {
            vs.add(new Violation(Rule.TOO_LARGE, "transaction", "files total " + Limits.describe(total)
                    + ", over the limit of " + Limits.describe(Limits.MAX_TRANSACTION_BYTES) + " per commit"));
        }
        if (!vs.isEmpty()) {
            throw new RejectedException(vs);
        }
    }

    private static String subject(Operation op) {
        return op instanceof Operation.Assert a ? a.id().value()
                : op instanceof Operation.Revise r ? r.id().value()
                : ((Operation.Reground) op).id().value();
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
