package dev.palimpsest.internal.merge;

import static dev.palimpsest.internal.merge.History.edits;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.FactId;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;

/**
 * The convergent merge on histories with several merge bases, versions introduced before or after
 * the bases, and several changed units: the outcome is the same in both orders.
 */
class ConvergentMergeHistoryTest {
    private static final FactId F = FactId.of("f");
    private static final String FACT = StorePaths.candidatePaths(F).get(0);
    private static final String ARTIFACT = StorePaths.candidatePaths(F).get(3);

    private final History h = new History();

    @Test
    void oneVersionAtTwoPathsThatTheTwoMergeBasesDisagreeOnResolvesTheSameInBothOrders() throws Exception {
        ObjectId root = h.commit(0, edits("palimpsest.yaml", "format: 1\n"));
        ObjectId x = h.commit(10, edits(FACT, "same"), root);
        ObjectId y = h.commit(10, edits(ARTIFACT, "same"), root);
        ObjectId a = h.commit(20, edits(), x, y);
        ObjectId b = h.commit(20, edits(), y, x);
        History.Merged m = h.merge(a, b);
        assertThat(m.files()).containsKey(FACT).doesNotContainKey(ARTIFACT);
    }

    @Test
    void aUnitTheAgreeingMergeBasesHoldAndOneSideChangedTakesThatSideAndLosesNothing() throws Exception {
        ObjectId root = h.commit(0, edits("palimpsest.yaml", "format: 1\n", FACT, "version 0"));
        ObjectId x = h.commit(10, edits("notes/x", "x"), root);
        ObjectId y = h.commit(10, edits("notes/y", "y"), root);
        ObjectId a = h.commit(20, edits(FACT, "version a"), x, y);
        ObjectId b = h.commit(30, edits("notes/b", "b"), y, x);
        History.Merged m = h.merge(a, b);
        assertThat(m.files()).containsEntry(FACT, h.blob("version a"));
        assertThat(m.result().lost()).isEmpty();
    }
}
