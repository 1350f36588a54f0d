package dev.palimpsest.internal.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;

/** Per-fact events by chain and position, past every resize of the chain slots and event arrays; the chains of the commit graph. */
class FactTimelineTest {
    private static ObjectId id(int n) {
        return ObjectId.fromString(String.format("%040x", n + 1));
    }

    private static FactEvent written(int n, String cites) {
        return new FactEvent(id(n), true, id(n), id(n + 1000), "claim",
                cites == null ? List.of() : List.of(new RefPin(cites, "about", id(0), id(0))));
    }

    private static FactEvent removed(int n) {
        return new FactEvent(id(n), false, id(n - 1), id(n + 999), "claim", List.of());
    }

    @Test
    void eventsOnManyChainsAreFoundPastEveryResize() {
        FactTimeline t = new FactTimeline();
        int chains = 9;
        int perChain = 17;
        for (int c = 0; c < chains; c++) {
            for (int i = 0; i < perChain; i++) {
                t.add(c * 3, i * 2, written(c * 100 + i, i == 5 ? "target" + c : null));
            }
        }
        for (int c = 0; c < chains; c++) {
            assertThat(t.lastAtOrBefore(c * 3, -1)).isNull();
            assertThat(t.lastAtOrBefore(c * 3, 0).commit()).isEqualTo(id(c * 100));
            assertThat(t.lastAtOrBefore(c * 3, 7).commit()).isEqualTo(id(c * 100 + 3));
            assertThat(t.lastAtOrBefore(c * 3, 8).commit()).isEqualTo(id(c * 100 + 4));
            assertThat(t.lastAtOrBefore(c * 3, 1000).commit()).isEqualTo(id(c * 100 + perChain - 1));
            assertThat(t.lastAtOrBefore(c * 3 + 1, 1000)).isNull();
            List<ObjectId> seen = new ArrayList<>();
            t.eachAtOrBefore(c * 3, 6, e -> seen.add(e.commit()));
            assertThat(seen).containsExactly(id(c * 100), id(c * 100 + 1), id(c * 100 + 2), id(c * 100 + 3));
            assertThat(t.cites(c * 3, 9, "target" + c)).isFalse();
            assertThat(t.cites(c * 3, 10, "target" + c)).isTrue();
            assertThat(t.cites(c * 3, 1000, "target" + (c + 1))).isFalse();
            assertThat(t.cites(c * 3 + 1, 1000, "target" + c)).isFalse();
        }
        List<ObjectId> all = new ArrayList<>();
        t.forEach(e -> all.add(e.commit()));
        assertThat(all).hasSize(chains * perChain).startsWith(id(0), id(1)).endsWith(id(800 + perChain - 1));
        List<ObjectId> none = new ArrayList<>();
        t.eachAtOrBefore(1, 1000, e -> none.add(e.commit()));
        assertThat(none).isEmpty();
    }

    @Test
    void aRemovedVersionDoesNotCite() {
        FactTimeline t = new FactTimeline();
        t.add(0, 0, removed(1));
        t.add(0, 1, written(2, "x"));
        assertThat(t.cites(0, 0, "x")).isFalse();
        assertThat(t.cites(0, 1, "x")).isTrue();
        FactTimeline r = new FactTimeline();
        r.add(0, 0, new FactEvent(id(1), false, id(1), id(2), "claim", List.of(new RefPin("x", "about", null, null))));
        assertThat(r.cites(0, 5, "x")).isFalse();
    }

    @Test
    void linearCommitsExtendOneChainAndOnlyAForkStartsAnother() {
        CommitGraph g = new CommitGraph();
        assertThat(g.add(id(0), null)).isEqualTo(new CommitGraph.Node(0, 0));
        for (int i = 1; i < 10; i++) {
            assertThat(g.add(id(i), id(i - 1))).isEqualTo(new CommitGraph.Node(0, i));
        }
        assertThat(g.tips()).containsExactly(id(9));
        assertThat(g.size()).isEqualTo(10);
        assertThat(g.parentChain(0)).isEqualTo(-1);
        CommitGraph.Node fork = g.add(id(20), id(4));
        assertThat(fork).isEqualTo(new CommitGraph.Node(1, 0));
        assertThat(g.parentChain(1)).isZero();
        assertThat(g.forkPos(1)).isEqualTo(4);
        assertThat(g.add(id(21), id(20))).isEqualTo(new CommitGraph.Node(1, 1));
        assertThat(g.add(id(10), id(9))).isEqualTo(new CommitGraph.Node(0, 10));
        assertThat(g.tips()).containsExactly(id(10), id(21));
        assertThat(g.add(id(30), null)).isEqualTo(new CommitGraph.Node(2, 0));
        assertThat(g.contains(id(21))).isTrue();
        assertThat(g.contains(id(22))).isFalse();
        assertThat(g.node(id(21))).isEqualTo(new CommitGraph.Node(1, 1));
        assertThat(g.node(id(22))).isNull();
    }
}
