package dev.palimpsest.internal.write;

import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import dev.palimpsest.internal.layout.FileMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The gate's rule for file records, whichever path writes them (a plain {@code assert --kind file}
 * or {@code revise} included): a fact of kind {@code file} has a canonical metadata body
 * ({@link FileMeta}) and its content is in the commit's tree (written by this commit or already
 * there), so what the audit checks of a file record holds at write time. Stateless.
 */
public final class FileGate {
    private FileGate() {}

    /**
     * Violations of the written facts ({@code facts}: path to fact); {@code inTree} says whether a
     * content path is in the resulting tree.
     */
    public static List<Violation> check(Map<String, Fact> facts, Predicate<String> inTree) {
        List<Violation> out = new ArrayList<>();
        for (Fact f : facts.values()) {
            if (!FileMeta.KIND.equals(f.kind().value())) {
                continue;
            }
            FileMeta m = FileMeta.decode(f.body());
            if (m == null) {
                out.add(new Violation(Rule.INVALID_FILE_RECORD, "fact " + f.id(),
                        "the body of a file record must be canonical file metadata (use file put)"));
            } else if (!FileMeta.idOf(m.name()).equals(f.id())) {
                out.add(new Violation(Rule.INVALID_FILE_RECORD, "fact " + f.id(), "the record of a file named "
                        + FileMeta.quote(m.name()) + " is " + FileMeta.idOf(m.name()) + " (use file put)"));
            } else if (!inTree.test(m.contentPath())) {
                out.add(new Violation(Rule.INVALID_FILE_RECORD, "fact " + f.id(), "names content " + m.contentPath()
                        + ", which the commit would not hold (use file put)"));
            }
        }
        return out;
    }
}
