package dev.palimpsest.claims;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.DeadEnds;
import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RejectedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model-based: random claims, supersessions, retractions and a multi-valued declaration, then
 * {@code current}, {@code dead-ends} and {@code contradictions} at random past commits compared
 * with a plain in-memory model. The seed comes from {@link Seeds}; {@code -Dpalimpsest.seed=N} replays a run.
 */
@ExtendWith(Seeds.class)
class ClaimsModelTest {
    private static final String[] SUBJECTS = {"GraphARC", "  grapharc  ", "GRAPHARC!", "Graph-ARC", "東京", "北京"};
    private static final String[] PREDICATES = {"depends on", "Times Out After", "listens on"};
    private static final String[] OBJECTS = {"30s", "10S", "10s", "redis", "Postgres", "8080"};

    @TempDir
    Path dir;

    /** One claim of the model. */
    static final class M {
        String id;
        String s;
        String p;
        String o;
        int written;
        int retracted = Integer.MAX_VALUE;
        String supersedes;
    }

    private final List<M> claims = new ArrayList<>();
    private int multiValuedFrom = Integer.MAX_VALUE;

    private boolean retractedAt(M m, int step) {
        return m.retracted <= step;
    }

    /** The live superseder of {@code m} at {@code step} written first (then smallest id), or null. */
    private M superseder(M m, int step) {
        return claims.stream().filter(x -> m.id.equals(x.supersedes) && x.written <= step && !retractedAt(x, step))
                .min(Comparator.<M>comparingInt(x -> x.written).thenComparing(x -> x.id)).orElse(null);
    }

    private boolean live(M m, int step) {
        return m.written <= step && !retractedAt(m, step) && superseder(m, step) == null;
    }

    @Test
    void agreesWithTheModelAtRandomPastCommits(Seed seed) throws Exception {
        Random rnd = seed.random();
        List<CommitId> commits = new ArrayList<>();
        try (Store s = TestStores.init(dir)) {
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.SOURCE, "the source").id(FactId.of("src")));
            tx.commit();
            FactId src = FactId.of("src");
            int n = 0;
            for (int step = 0; step < 70; step++) {
                int op = rnd.nextInt(10);
                String subject = SUBJECTS[rnd.nextInt(SUBJECTS.length)];
                String predicate = PREDICATES[rnd.nextInt(PREDICATES.length)];
                String object = OBJECTS[rnd.nextInt(OBJECTS.length)];
                M m = new M();
                m.id = "c" + (n++);
                m.s = subject;
                m.p = predicate;
                m.o = object;
                m.written = commits.size();
                int stepNo = commits.size();
                if (op < 5 || claims.isEmpty()) {
                    var r = s.claims().claim(TestStores.ALICE, ClaimSpec.of(subject, predicate, object, src).id(FactId.of(m.id)));
                    // the conflicts reported are the model's contradictions of the new claim
                    Set<String> expected = claims.stream().filter(x -> live(x, stepNo - 1)
                            && EntityKey.of(x.s).equals(EntityKey.of(subject)) && EntityKey.of(x.p).equals(EntityKey.of(predicate))
                            && !EntityKey.of(x.o).equals(EntityKey.of(object))
                            && !(multiValuedFrom <= stepNo && EntityKey.of(predicate).equals("depends on")))
                            .map(x -> x.id).collect(Collectors.toSet());
                    assertThat(r.conflicts()).extracting(c -> c.id().value()).containsExactlyInAnyOrderElementsOf(expected);
                    claims.add(m);
                    commits.add(r.commit());
                } else if (op < 8) {
                    M old = claims.get(rnd.nextInt(claims.size()));
                    m.s = old.s;
                    m.p = old.p;
                    m.supersedes = old.id;
                    boolean accept = superseder(old, stepNo - 1) == null;
                    try {
                        var r = s.claims().supersede(TestStores.ALICE, FactId.of(old.id),
                                ClaimSpec.of(m.s, m.p, object, src).id(FactId.of(m.id)));
                        assertThat(accept).as("supersede of " + old.id + " accepted").isTrue();
                        claims.add(m);
                        commits.add(r.commit());
                    } catch (RejectedException e) {
                        assertThat(accept).as("supersede of " + old.id + " refused: " + e.getMessage()).isFalse();
                    }
                } else if (op < 9) {
                    List<M> present = claims.stream().filter(x -> !retractedAt(x, stepNo)).toList();
                    if (present.isEmpty()) {
                        continue;
                    }
                    M victim = present.get(rnd.nextInt(present.size()));
                    var t = s.begin(TestStores.ALICE);
                    t.retract(FactId.of(victim.id), "wrong");
                    commits.add(t.commit().id());
                    victim.retracted = stepNo;
                } else if (multiValuedFrom == Integer.MAX_VALUE) {
                    var r = s.receipts().ingest(TestStores.ALICE, "multi_valued: [depends on]\n".getBytes(), false);
                    commits.add(r.commit().id());
                    multiValuedFrom = stepNo;
                }
            }
            for (int q = 0; q < 120; q++) {
                int step = rnd.nextInt(commits.size());
                CommitId at = commits.get(step);
                String subject = SUBJECTS[rnd.nextInt(SUBJECTS.length)];
                String key = EntityKey.of(subject);
                // current
                List<String> expectedCurrent = claims.stream()
                        .filter(x -> live(x, step) && EntityKey.of(x.s).equals(key))
                        .sorted(Comparator.<M>comparingInt(x -> x.written).thenComparing(x -> x.id))
                        .map(x -> x.id).toList();
                assertThat(s.claims().at(at).current(subject)).extracting(c -> c.id().value())
                        .as("current %s at step %d", subject, step).containsExactlyElementsOf(expectedCurrent);
                // dead ends
                int max = rnd.nextInt(4);
                List<M> dead = new ArrayList<>();
                Map<String, Integer> correction = new TreeMap<>();
                for (M x : claims) {
                    if (x.written > step || !EntityKey.of(x.s).equals(key)) {
                        continue;
                    }
                    if (retractedAt(x, step)) {
                        dead.add(x);
                        correction.put(x.id, x.retracted);
                    } else if (superseder(x, step) != null) {
                        dead.add(x);
                        correction.put(x.id, superseder(x, step).written);
                    }
                }
                dead.sort(Comparator.<M>comparingInt(x -> -correction.get(x.id)).thenComparing(x -> x.id));
                DeadEnds d = s.claims().at(at).deadEnds(subject, max);
                assertThat(d.kept()).extracting(c -> c.id().value()).as("dead ends %s at step %d", subject, step)
                        .containsExactlyElementsOf(dead.stream().limit(max).map(x -> x.id).toList());
                assertThat(d.omitted()).isEqualTo(Math.max(0, dead.size() - max));
                // contradictions (all subjects)
                Map<String, List<M>> groups = new TreeMap<>();
                for (M x : claims) {
                    if (live(x, step) && !(multiValuedFrom <= step && EntityKey.of(x.p).equals("depends on"))) {
                        groups.computeIfAbsent(EntityKey.of(x.s) + "|" + EntityKey.of(x.p), k -> new ArrayList<>()).add(x);
                    }
                }
                Set<String> expectedGroups = new TreeSet<>();
                groups.forEach((k, xs) -> {
                    if (xs.stream().map(x -> EntityKey.of(x.o)).distinct().count() > 1) {
                        expectedGroups.add(k + "=" + xs.stream().map(x -> x.id).sorted().toList());
                    }
                });
                Set<String> actual = new TreeSet<>();
                for (Contradiction c : s.claims().at(at).contradictions()) {
                    actual.add(c.subject() + "|" + c.predicate() + "="
                            + c.claims().stream().map(v -> v.id().value()).sorted().toList());
                }
                assertThat(actual).as("contradictions at step %d", step).isEqualTo(expectedGroups);
                assertThat(s.claims().at(at).contradictions(subject)).allSatisfy(c -> assertThat(c.subject()).isEqualTo(key));
            }
        }
        // a fresh process (a new Store) answers the same from the persisted index
        try (Store s = dev.palimpsest.api.Store.open(dir.resolve("store.git"), new dev.palimpsest.api.KeyHome(dir.resolve("home")))) {
            CommitId at = commits.get(commits.size() / 2);
            int step = commits.size() / 2;
            List<String> expected = claims.stream().filter(x -> live(x, step) && EntityKey.of(x.s).equals("grapharc"))
                    .sorted(Comparator.<M>comparingInt(x -> x.written).thenComparing(x -> x.id)).map(x -> x.id).toList();
            assertThat(s.claims().at(at).current("GraphARC")).extracting(ClaimView::id).extracting(FactId::value)
                    .containsExactlyElementsOf(expected);
        }
    }
}
