package dev.palimpsest.internal.audit;

import dev.palimpsest.model.Rule;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.FactId;
import java.io.IOException;
import java.util.Optional;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Whether a (commit, blob) pin names a real version of a fact in the audited commit's past: the
 * commit exists, is the first parent or one of its ancestors, holds the blob as the fact's file,
 * and introduced it (its own first parent did not hold that blob there). This is the version a
 * ref or a retraction record must name (store-layout.md, "Pins"). Stateless.
 */
final class Pins {
    /** A broken pin: the rule and a readable reason. */
    record Problem(Rule rule, String message) {}

    private Pins() {}

    /** Null when the pin is valid for {@code c}; else what is wrong with it. */
    static Problem check(AuditedCommit c, FactId target, ObjectId commit, ObjectId blob) throws IOException {
        String key = commit.name() + blob.name() + target.value();
        Optional<Problem> known = c.run().pins.get(key);
        if (known == null) {
            known = Optional.ofNullable(version(c, target, commit, blob));
            c.run().pins.put(key, known);
        }
        Problem p = known.orElse(null);
        if (p != null && p.rule() == Rule.PIN_UNKNOWN) {
            return p;
        }
        if (c.parent() == null || !c.run().ancestry.isAncestorOrSelf(commit, c.parent())) {
            return new Problem(Rule.PIN_NOT_ANCESTOR, "commit " + commit.name() + " is not the parent of "
                    + c.commitId().abbreviated() + " or one of its ancestors");
        }
        return p;
    }

    /** What is wrong with the pin whatever commit holds it: an unknown commit, or not a version it wrote. */
    private static Problem version(AuditedCommit c, FactId target, ObjectId commit, ObjectId blob) throws IOException {
        int type = c.reading().typeOf(commit);
        if (type != Constants.OBJ_COMMIT) {
            return new Problem(Rule.PIN_UNKNOWN, "commit " + commit.name()
                    + (type < 0 ? " does not exist in this store" : " is not a commit"));
        }
        ObjectId tree = c.run().treeOf(c.reading(), commit);
        for (String path : StorePaths.candidatePaths(target)) {
            ObjectId found = c.reading().blobAt(tree, path);
            if (found == null) {
                continue;
            }
            if (!found.equals(blob)) {
                return new Problem(Rule.PIN_MISMATCH, "at " + commit.name() + " the file of " + target + " is blob "
                        + found.name() + ", not " + blob.name());
            }
            ObjectId before = c.run().firstParentOf(c.reading(), commit);
            if (before != null && blob.equals(c.reading().blobAt(c.run().treeOf(c.reading(), before), path))) {
                return new Problem(Rule.PIN_MISMATCH, "commit " + commit.name() + " did not write this version of "
                        + target + " (its parent already held blob " + blob.name() + ")");
            }
            return null;
        }
        return new Problem(Rule.PIN_MISMATCH, target + " has no file at " + commit.name());
    }
}
