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

    @Test
    void theLosersAreSortedByFactIdWhateverTheirPathsOrder() throws Exception {
        String[] ids = idsWhosePathsSortTheOtherWay();
        String pf = StorePaths.candidatePaths(FactId.of(ids[0])).get(0);
        String pg = StorePaths.candidatePaths(FactId.of(ids[1])).get(0);
        ObjectId base = h.commit(0, edits(pf, "f0", pg, "g0"));
        ObjectId a = h.commit(10, edits(pf, "fa", pg, "ga"), base);
        ObjectId b = h.commit(20, edits(pf, "fb", pg, "gb"), base);
        assertThat(h.merge(a, b).result().lost()).extracting(l -> l.id().value()).containsExactly(ids[0], ids[1]);
    }

    @Test
    void aKeyChangedOnBothSidesIsDecidedByItsKeyFileNotItsLaterRecord() throws Exception {
        ObjectId base = h.commit(0, edits("keys/bob.asc", "key 0", "keys/bob.yaml", "record 0"));
        ObjectId a1 = h.commit(10, edits("keys/bob.asc", "key a", "keys/bob.yaml", "record a"), base);
        ObjectId a2 = h.commit(30, edits("keys/bob.yaml", "record a2"), a1);
        ObjectId b = h.commit(20, edits("keys/bob.asc", "key b", "keys/bob.yaml", "record b"), base);
        assertThat(h.merge(a2, b).files()).containsEntry("keys/bob.asc", h.blob("key b"))
                .containsEntry("keys/bob.yaml", h.blob("record b"));
    }

    @Test
    void ofTwoForgetsTheLaterTombstoneWins() throws Exception {
        String tomb = StorePaths.tombstonePath(F);
        ObjectId base = h.commit(0, edits(FACT, "version 0"));
        ObjectId a = h.commit(20, edits(FACT, null, tomb, "forgotten on a"), base);
        ObjectId b = h.commit(10, edits(FACT, null, tomb, "forgotten on b"), base);
        assertThat(h.merge(a, b).files()).containsEntry(tomb, h.blob("forgotten on a")).doesNotContainKey(FACT);
    }

    @Test
    void theIntroducingCommitIsOnTheSideNotInTheHistoryBeforeTheBases() throws Exception {
        ObjectId old = h.commit(200, edits(FACT, "version 1"));
        ObjectId base = h.commit(201, edits(FACT, "version 2"), old);
        ObjectId a = h.commit(10, edits(FACT, "version 1"), base);
        ObjectId b = h.commit(20, edits(FACT, "version 3"), base);
        History.Merged m = h.merge(a, b);
        assertThat(m.files()).containsEntry(FACT, h.blob("version 3"));
        assertThat(m.result().lost()).containsExactly(new ConvergentMerge.Lost(F, a, b));
    }

    @Test
    void aVersionDatesFromTheCommitThatIntroducedItNotALaterOneThatKeptIt() throws Exception {
        ObjectId base = h.commit(0, edits(FACT, "version 0"));
        ObjectId a1 = h.commit(10, edits(FACT, "version a"), base);
        ObjectId a2 = h.commit(30, edits("notes/a", "later"), a1);
        ObjectId b = h.commit(20, edits(FACT, "version b"), base);
        History.Merged m = h.merge(a2, b);
        assertThat(m.files()).containsEntry(FACT, h.blob("version b"));
        assertThat(m.result().lost()).containsExactly(new ConvergentMerge.Lost(F, a1, b));
    }

    @Test
    void presenceBeatsALaterRemovalOfAFileOrAFactWithoutRecord() throws Exception {
        ObjectId base = h.commit(0, edits("notes/n", "n0", FACT, "version 0"));
        ObjectId a = h.commit(30, edits("notes/n", null, FACT, null), base);
        ObjectId b = h.commit(20, edits("notes/n", "nb", FACT, "version b"), base);
        assertThat(h.merge(a, b).files()).containsEntry("notes/n", h.blob("nb")).containsEntry(FACT, h.blob("version b"));
    }

    /** Two fact ids, smaller first, whose first candidate paths sort the other way. */
    private static String[] idsWhosePathsSortTheOtherWay() {
        for (int i = 1; i < 100; i++) {
            for (int j = i + 1; j < 100; j++) {
                String f = "f" + (char) ('a' + i % 26) + i;
                String g = "f" + (char) ('a' + j % 26) + j;
                String[] ids = f.compareTo(g) < 0 ? new String[] {f, g} : new String[] {g, f};
                if (StorePaths.candidatePaths(FactId.of(ids[0])).get(0)
                        .compareTo(StorePaths.candidatePaths(FactId.of(ids[1])).get(0)) > 0) {
                    return ids;
                }
            }
        }
        throw new AssertionError("no pair");
    }
}
