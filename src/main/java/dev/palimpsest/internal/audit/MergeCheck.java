package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.git.TreeEditor;
import dev.palimpsest.internal.merge.ConvergentMerge;
import dev.palimpsest.internal.merge.MergeMessage;
import dev.palimpsest.model.Rule;
import java.io.IOException;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import dev.palimpsest.internal.git.IdOnlyInserter;

/**
 * A merge commit (two parents) must be the {@link ConvergentMerge} of its parents: its tree is the
 * merged tree, recomputed here, and its trailers are {@code Palimpsest-Actor} (the author),
 * {@code Palimpsest-Op: merge}, {@code Palimpsest-Merge} (the second parent) and the
 * {@code Palimpsest-Lost} lines of the recomputed merge. Commits with one parent are left to the
 * other checks. Stateless.
 */
final class MergeCheck implements AuditCheck {
    @Override
    public boolean checksMerges() {
        return true;
    }

    @Override
    public void check(AuditedCommit c) throws IOException {
        RawCommit raw = c.raw();
        if (raw.parents().size() != 2) {
            return;
        }
        ObjectId ours = raw.parents().get(0);
        ObjectId theirs = raw.parents().get(1);
        ConvergentMerge.Result merged;
        try {
            merged = ConvergentMerge.merge(c.reading().reader(), ours, theirs);
        } catch (ConvergentMerge.UnrelatedException e) {
            c.violation(null, Rule.MERGE_MISMATCH, "a merge of two unrelated histories: " + e.getMessage());
            return;
        }
        ObjectId expected;
        try (IdOnlyInserter ids = new IdOnlyInserter()) {
            expected = TreeEditor.apply(c.reading().reader(), ids, c.parentTree(), merged.edits());
        }
        if (!expected.equals(raw.tree())) {
            c.violation(null, Rule.MERGE_MISMATCH, "the tree " + raw.tree().name()
                    + " is not the convergent merge of its parents, which is the tree " + expected.name());
        }
        String actor = raw.author() == null ? "" : raw.author().name();
        List<String> want = MergeMessage.trailers(actor, theirs, merged);
        List<String> have = MergeMessage.trailerLines(raw.message());
        if (!want.equals(have)) {
            c.violation(null, Rule.MERGE_MISMATCH, "the merge's trailers " + have
                    + " are not the ones its merge calls for " + want);
        }
    }
}
