package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model-based: random claims, revisions, retractions and supersessions (one commit each), with a
 * model of what is visible at every commit (present, and not superseded by a present fact) and in
 * which body. At every commit, searching each entity returns exactly the visible claims about it in
 * their bodies there, and random text searches (two hops) never return anything else.
 */
@ExtendWith(Seeds.class)
class RecallModelTest {
    static final String[] ENTITIES = {"auth-service", "billing-service", "redis", "postgres", "platform team", "cdn"};
    static final String[] PREDICATES = {"depends on", "owned by", "times out after"};
    static final String[] WORDS = {"leak", "timeout", "cache", "region", "quota", "outage", "latency", "retry"};

    @TempDir
    Path dir;

    /** Facts present at a commit (id to body) and the supersedes refs each carries. */
    record State(Map<String, String> bodies, Map<String, String> subjects, Map<String, Set<String>> supersedes) {
        State copy() {
            Map<String, Set<String>> s = new HashMap<>();
            supersedes.forEach((k, v) -> s.put(k, new HashSet<>(v)));
            return new State(new TreeMap<>(bodies), new HashMap<>(subjects), s);
        }

        Set<String> visible() {
            Set<String> hidden = new HashSet<>();
            for (var e : supersedes.entrySet()) {
                if (bodies.containsKey(e.getKey())) {
                    hidden.addAll(e.getValue());
                }
            }
            Set<String> out = new TreeSet<>(bodies.keySet());
            out.removeAll(hidden);
            return out;
        }
    }

    @Test
    void searchAtEveryCommitReturnsExactlyTheVisibleClaimsInTheirVersionThere(Seed seed) throws Exception {
        Random rnd = seed.random();
        try (Store s = TestStores.init(dir)) {
            FactId doc = RecallStoriesTest.source(s, "doc");
            State state = new State(new TreeMap<>(), new HashMap<>(), new HashMap<>());
            Map<CommitId, State> at = new HashMap<>();
            List<CommitId> commits = new ArrayList<>();
            int next = 0;
            for (int step = 0; step < 45; step++) {
                List<String> visible = new ArrayList<>(state.visible());
                int op = visible.isEmpty() ? 0 : rnd.nextInt(10);
                String id = "c" + next;
                if (op < 4) {
                    next++;
                    String subj = ENTITIES[rnd.nextInt(ENTITIES.length)];
                    String obj = rnd.nextInt(3) == 0 ? ENTITIES[rnd.nextInt(ENTITIES.length)]
                            : WORDS[rnd.nextInt(WORDS.length)] + " " + rnd.nextInt(100);
                    ClaimSpec spec = ClaimSpec.of(subj, PREDICATES[rnd.nextInt(PREDICATES.length)], obj, doc)
                            .id(FactId.of(id));
                    s.claims().claim(TestStores.ALICE, spec);
                    state.bodies().put(id, spec.toFactSpec().body());
                    state.subjects().put(id, subj);
                } else if (op < 6) {
                    String old = visible.get(rnd.nextInt(visible.size()));
                    next++;
                    String subj = state.subjects().get(old);
                    ClaimSpec spec = ClaimSpec.of(subj, "times out after", rnd.nextInt(60) + "s", doc).id(FactId.of(id));
                    s.claims().supersede(TestStores.ALICE, FactId.of(old), spec);
                    state.bodies().put(id, spec.toFactSpec().body());
                    state.subjects().put(id, subj);
                    state.supersedes().put(id, new HashSet<>(Set.of(old)));
                } else if (op < 8) {
                    List<String> present = new ArrayList<>(state.bodies().keySet());
                    String victim = present.get(rnd.nextInt(present.size()));
                    var tx = s.begin(TestStores.ALICE);
                    tx.retract(FactId.of(victim), "wrong");
                    tx.commit();
                    state.bodies().remove(victim);
                } else {
                    String target = visible.get(rnd.nextInt(visible.size()));
                    String body = state.subjects().get(target) + " revised " + WORDS[rnd.nextInt(WORDS.length)] + " "
                            + step;
                    var tx = s.begin(TestStores.ALICE);
                    tx.revise(FactId.of(target), body, List.of());
                    tx.commit();
                    state.bodies().put(target, body);
                }
                commits.add(s.head());
                at.put(s.head(), state.copy());
                state = state.copy();
            }
            // asked in random order, so the index answers the past after the present
            List<CommitId> order = new ArrayList<>(commits);
            java.util.Collections.shuffle(order, rnd);
            for (CommitId c : order) {
                State m = at.get(c);
                Set<String> visible = m.visible();
                for (String e : ENTITIES) {
                    List<SearchHit> hits = s.recall().search(SearchQuery.builder().entity(e).subject(e).at(c).limit(1000)
                            .hops(0).build());
                    Set<String> expected = new TreeSet<>();
                    for (String v : visible) {
                        if (m.subjects().get(v).equals(e)) {
                            expected.add(v);
                        }
                    }
                    assertThat(hits).extracting(h -> h.id().value()).as("entity %s at %s", e, c)
                            .containsExactlyInAnyOrderElementsOf(expected);
                    for (SearchHit h : hits) {
                        assertThat(h.body()).isEqualTo(m.bodies().get(h.id().value()));
                        assertThat(s.factLiveAtCommit(h.id(), c)).isTrue();
                    }
                }
                String word = WORDS[rnd.nextInt(WORDS.length)];
                for (String q : List.of(word, word + " " + ENTITIES[rnd.nextInt(ENTITIES.length)])) {
                    for (SearchHit h : s.recall().search(SearchQuery.builder(q).at(c).limit(1000).hops(2)
                            .build())) {
                        assertThat(h.id().value().equals("doc") || visible.contains(h.id().value()))
                                .as("%s returned for '%s' at %s", h.id(), q, c).isTrue();
                        if (!h.id().value().equals("doc")) {
                            assertThat(h.body()).isEqualTo(m.bodies().get(h.id().value()));
                        }
                    }
                }
            }
        }
    }
}
