package dev.palimpsest.internal.write;

import dev.palimpsest.internal.rules.FileRules;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The gate's rules for file records, whichever path writes them (a plain {@code assert --kind file}
 * or {@code revise} included), through the shared {@link FileRules} the audit replays: a fact of
 * kind {@code file} has a canonical metadata body for the name its id derives from, its content is
 * in the commit's tree (written by this commit or already there), and it cites a source. Stateless.
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
            String subject = "fact " + f.id();
            FileRules.record(f, inTree, (rule, msg) -> out.add(new Violation(rule, subject, msg)));
            FileRules.source(f, (rule, msg) -> out.add(new Violation(rule, subject, msg)));
        }
        return out;
    }
}
