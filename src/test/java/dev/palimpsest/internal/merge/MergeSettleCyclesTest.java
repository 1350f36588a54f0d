package dev.palimpsest.internal.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Sentence;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;

/**
 * Receipt cycles closed across the two sides, on hand-made histories: found through facts neither
 * side changed, broken at the latest change on the cycle itself, never reported where there is none.
 */
class MergeSettleCyclesTest {
    private final History h = new History();

    @Test
    void aCycleThroughAnArtifactNeitherSideChangedIsBrokenAtTheLaterChange() throws Exception {
        ObjectId base = h.commit(0, facts(claim("p1"), artifact("x", "p1"), artifact("y", "p1"), artifact("z", "x")));
        ObjectId a = h.commit(10, facts(artifact("x", "p1", "y")), base);
        ObjectId b = h.commit(20, facts(artifact("y", "p1", "z")), base);
        History.Merged m = h.merge(a, b);
        assertThat(m.result().settled()).singleElement().asString().startsWith("receipt-cycle y " + b.name() + " ");
        assertThat(m.files()).containsEntry(path(artifact("y")), h.blob(artifact("y", "p1")[1]))
                .containsEntry(path(artifact("x")), h.blob(artifact("x", "p1", "y")[1]));
    }

    @Test
    void aLaterChangeThatOnlyLeadsIntoTheCycleIsNotDropped() throws Exception {
        ObjectId base = h.commit(0, facts(claim("p1"), artifact("a0", "p1"), artifact("x", "p1"), artifact("y", "p1")));
        ObjectId a = h.commit(10, facts(artifact("x", "p1", "y")), base);
        ObjectId b1 = h.commit(20, facts(artifact("y", "p1", "x")), base);
        ObjectId b2 = h.commit(30, facts(artifact("a0", "p1", "x")), b1);
        History.Merged m = h.merge(a, b2);
        assertThat(m.result().settled()).singleElement().asString().startsWith("receipt-cycle y " + b1.name() + " ");
        assertThat(m.files()).containsEntry(path(artifact("a0")), h.blob(artifact("a0", "p1", "x")[1]));
    }

    @Test
    void twoChangedArtifactsRestingOnOneMemberMakeNoCycle() throws Exception {
        ObjectId base = h.commit(0, facts(claim("p1"), claim("p2"), artifact("x", "p1"), artifact("y", "p1")));
        ObjectId a = h.commit(10, facts(artifact("x", "p1", "p2")), base);
        ObjectId b = h.commit(20, facts(artifact("y", "p1", "p2")), base);
        History.Merged m = h.merge(a, b);
        assertThat(m.result().settled()).isEmpty();
        assertThat(m.files()).containsEntry(path(artifact("y")), h.blob(artifact("y", "p1", "p2")[1]));
    }

    @Test
    void aChangeDroppedBackToTheBaseIsNotDroppedAgainWhenTheCycleStays() throws Exception {
        ObjectId base = h.commit(0, facts(claim("p1"), claim("p2"), artifact("x", "p1"), artifact("y", "x")));
        ObjectId a1 = h.commit(5, facts(artifact("y", "x", "p2")), base);
        ObjectId a2 = h.commit(40, facts(artifact("y", "x")), a1);
        ObjectId b1 = h.commit(10, facts(artifact("x", "p1", "y")), base);
        ObjectId b2 = h.commit(20, facts(artifact("y", "x", "p1")), b1);
        History.Merged m = h.merge(a2, b2);
        assertThat(m.result().settled()).hasSize(2).satisfiesExactly(
                x -> assertThat(x).startsWith("receipt-cycle x " + b1.name() + " "),
                y -> assertThat(y).isEqualTo("receipt-cycle y " + b2.name() + " " + a2.name()));
        assertThat(m.files()).containsEntry(path(artifact("x")), h.blob(artifact("x", "p1")[1]))
                .containsEntry(path(artifact("y")), h.blob(artifact("y", "x")[1]));
    }

    @Test
    void ofEqualVersionsOnACycleTheFirstFromTheSmallestStartIdIsDropped() throws Exception {
        String[] ids = idsWhoseFirstPathIsNotTheSmallestId();
        String y = ids[0];
        String x = ids[1];
        String w = ids[2];
        ObjectId base = h.commit(0, facts(claim("p1"), artifact(x, "p1"), artifact(y, "p1"), artifact(w, "p1")));
        ObjectId a = h.commit(20, facts(artifact(x, "p1", y), artifact(y, "p1", w)), base);
        ObjectId b = h.commit(10, facts(artifact(w, "p1", x)), base);
        History.Merged m = h.merge(a, b);
        assertThat(m.result().settled()).containsExactly("receipt-cycle " + y + " " + a.name() + " " + b.name());
    }

    @Test
    void theMembersOfSeveralSentenceReceiptsAreFollowedInIdOrder() throws Exception {
        ObjectId base = h.commit(0, facts(claim("p1"), artifact("k", "p1"), artifact("m", "p1"), artifact("n", "p1")));
        Grounding g = new Grounding(null, null, null, null, List.of(
                new Sentence("Artifact k.", new Receipt(List.of(List.of(Pin.of(FactId.of("p1"))),
                        List.of(Pin.of(FactId.of("n")))))),
                new Sentence("More on k.", new Receipt(List.of(List.of(Pin.of(FactId.of("m"))))))), false);
        Fact k = new Fact(FactId.of("k"), Kind.MERGE, "Artifact k. More on k.", null, List.of(), null, g);
        ObjectId a = h.commit(10, facts(new String[] {StorePaths.factPath(Kind.MERGE, k.id()), encode(k)}), base);
        ObjectId b1 = h.commit(20, facts(artifact("m", "p1", "k")), base);
        ObjectId b2 = h.commit(30, facts(artifact("n", "p1", "m")), b1);
        History.Merged m = h.merge(a, b2);
        assertThat(m.result().settled()).singleElement().asString().startsWith("receipt-cycle m " + b1.name() + " ");
        assertThat(m.files()).containsEntry(path(artifact("n")), h.blob(artifact("n", "p1", "m")[1]));
    }

    /** Three artifact ids, the smallest first, whose artifact paths do not put the smallest first. */
    private static String[] idsWhoseFirstPathIsNotTheSmallestId() {
        for (int i = 0; i < 50; i++) {
            String[] ids = {"c" + i, "d" + i, "e" + i};
            String first = ids[0];
            for (String id : ids) {
                if (path(artifact(id)).compareTo(path(artifact(first))) < 0) {
                    first = id;
                }
            }
            if (!first.equals(ids[0])) {
                return ids;
            }
        }
        throw new AssertionError("no ids");
    }

    /** A claim's path and content. */
    private static String[] claim(String id) {
        Fact f = new Fact(FactId.of(id), Kind.CLAIM, "Premise " + id + ".", null, List.of());
        return new String[] {StorePaths.factPath(Kind.CLAIM, f.id()), encode(f)};
    }

    /** An artifact's path and content: one bundle per member. */
    private static String[] artifact(String id, String... members) {
        List<List<Pin>> bundles = new ArrayList<>();
        for (String m : members) {
            bundles.add(List.of(Pin.of(FactId.of(m))));
        }
        Grounding g = bundles.isEmpty() ? Grounding.NONE
                : new Grounding(null, null, null, new Receipt(bundles), List.of(), false);
        Fact f = new Fact(FactId.of(id), Kind.MERGE, "Artifact " + id + ".", null, List.of(), null, g);
        return new String[] {StorePaths.factPath(Kind.MERGE, f.id()), encode(f)};
    }

    private static String path(String[] fact) {
        return fact[0];
    }

    private static String encode(Fact f) {
        return new String(FactCodec.encode(f), StandardCharsets.UTF_8);
    }

    private static String[] facts(String[]... each) {
        List<String> out = new ArrayList<>();
        for (String[] e : each) {
            out.addAll(List.of(e));
        }
        return out.toArray(String[]::new);
    }
}
