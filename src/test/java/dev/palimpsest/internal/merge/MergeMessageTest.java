package dev.palimpsest.internal.merge;

import static dev.palimpsest.internal.merge.History.edits;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;

/** The merge commit's subject and trailers, and the losses read back from merge commits only. */
class MergeMessageTest {
    private static final ObjectId OURS = ObjectId.fromString("1111111111111111111111111111111111111111");
    private static final ObjectId THEIRS = ObjectId.fromString("2222222222222222222222222222222222222222");
    private static final ConvergentMerge.Lost LOST_F = new ConvergentMerge.Lost(FactId.of("f"), OURS, THEIRS);
    private static final ConvergentMerge.Lost LOST_G = new ConvergentMerge.Lost(FactId.of("g"), THEIRS, OURS);

    @Test
    void theSubjectCountsLostRevisionsAndSettledConflictsInTheSingularOrPlural() {
        assertThat(subject(List.of(), List.of())).isEqualTo("merge 222222222222 into 111111111111");
        assertThat(subject(List.of(LOST_F), List.of())).isEqualTo(
                "merge 222222222222 into 111111111111: 1 concurrent revision lost");
        assertThat(subject(List.of(LOST_F, LOST_G), List.of())).isEqualTo(
                "merge 222222222222 into 111111111111: 2 concurrent revisions lost");
        assertThat(subject(List.of(), List.of("last-key bob"))).isEqualTo(
                "merge 222222222222 into 111111111111: 1 conflict settled");
        assertThat(subject(List.of(LOST_F), List.of("last-key bob", "key-in-use x y"))).isEqualTo(
                "merge 222222222222 into 111111111111: 1 concurrent revision lost, 2 conflicts settled");
    }

    @Test
    void theTrailersFollowTheSubjectAfterABlankLine() {
        String m = MergeMessage.of(ActorName.of("alice"), OURS, THEIRS,
                new ConvergentMerge.Result(Map.of(), List.of(LOST_F), List.of("last-key bob")));
        assertThat(MergeMessage.trailerLines(m)).containsExactly("Palimpsest-Actor: alice", "Palimpsest-Op: merge",
                "Palimpsest-Merge: " + THEIRS.name(), "Palimpsest-Lost: f " + OURS.name() + " " + THEIRS.name(),
                "Palimpsest-Settled: last-key bob");
    }

    @Test
    void aMessageThatOpensWithABlankLineHasTrailersAfterIt() {
        assertThat(MergeMessage.trailerLines("\n\nPalimpsest-Op: merge\n")).containsExactly("Palimpsest-Op: merge");
        assertThat(MergeMessage.trailerLines("subject only\n")).isEmpty();
    }

    @Test
    void lossesAreReadFromMergeCommitsOnly() throws Exception {
        History h = new History();
        String lost = "c\n\nPalimpsest-Lost: f " + OURS.name() + " " + THEIRS.name() + "\n";
        ObjectId root = h.commit(0, edits("x", "0"));
        ObjectId plain = h.commit(10, lost, edits("x", "1"), root);
        assertThat(MergeLosses.at(h.repo, plain)).isEmpty();
        ObjectId side = h.commit(20, edits("y", "1"), root);
        ObjectId merge = h.commit(30, lost, edits(), plain, side);
        assertThat(MergeLosses.at(h.repo, merge)).containsExactly(LOST_F);
    }

    private static String subject(List<ConvergentMerge.Lost> lost, List<String> settled) {
        String m = MergeMessage.of(ActorName.of("alice"), OURS, THEIRS, new ConvergentMerge.Result(Map.of(), lost, settled));
        return m.substring(0, m.indexOf('\n'));
    }
}
