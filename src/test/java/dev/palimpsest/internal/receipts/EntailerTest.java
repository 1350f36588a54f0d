package dev.palimpsest.internal.receipts;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.internal.yaml.Ontology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

@ExtendWith(Seeds.class)
class EntailerTest {
    private static final Ontology ONTOLOGY = new Ontology(List.of("part_of"),
            new TreeMap<>(Map.of("regulates", "regulated_by")), new TreeMap<>(Map.of("activates", "regulates")),
            List.of(new Ontology.Chain(List.of("regulates", "part_of"), "regulates")));

    @Test
    void transitivityInverseSubpropertyAndChainsEntailWithTheirDerivations() {
        Entailer e = new Entailer(ONTOLOGY);
        e.addAssertion("a1", new Entailer.Triple("x", "activates", "y"));
        e.addAssertion("a2", new Entailer.Triple("y", "part_of", "z"));
        e.addAssertion("a3", new Entailer.Triple("z", "part_of", "w"));
        e.apply();
        Entailer.Triple xRegY = new Entailer.Triple("x", "regulates", "y");
        assertThat(e.rank(xRegY)).isEqualTo(1);
        assertThat(e.bundles(xRegY, t -> "E")).containsExactly(List.of("a1"));
        assertThat(e.rank(new Entailer.Triple("y", "regulated_by", "x"))).isEqualTo(2);
        assertThat(e.rank(new Entailer.Triple("y", "part_of", "w"))).isEqualTo(1);
        Entailer.Triple xRegW = new Entailer.Triple("x", "regulates", "w");
        assertThat(e.rank(xRegW)).as("x regulates y, then y part_of w").isEqualTo(2);
        assertThat(e.bundles(xRegW, t -> t.p())).containsExactly(List.of("regulates", "part_of"));
        e.removeAssertion("a2");
        e.apply();
        assertThat(e.rank(xRegW)).isEqualTo(-1);
        assertThat(e.rank(xRegY)).isEqualTo(1);
    }

    @Test
    void incrementalMaintenanceAgreesWithFromScratchRecomputation(Seed seed) {
        Random rnd = seed.random();
        for (int round = 0; round < 20; round++) {
            Ontology onto = randomOntology(rnd);
            Entailer inc = new Entailer(onto);
            Map<String, Entailer.Triple> live = new HashMap<>();
            int next = 0;
            for (int step = 0; step < 25; step++) {
                next = randomChanges(rnd, live, next, inc);
                inc.apply();
                Entailer scratch = new Entailer(onto);
                live.forEach(scratch::addAssertion);
                scratch.apply();
                assertThat(snapshot(inc)).as("%s round %d step %d", seed, round, step).isEqualTo(snapshot(scratch));
            }
        }
    }

    @Test
    void aRestoredEntailerBehavesExactlyLikeOneThatWasNeverPersisted(Seed seed) throws Exception {
        Random rnd = seed.random();
        for (int round = 0; round < 20; round++) {
            Ontology onto = randomOntology(rnd);
            Entailer kept = new Entailer(onto);
            Entailer restored = null;
            Map<String, Entailer.Triple> live = new HashMap<>();
            int next = 0;
            int persistAt = rnd.nextInt(12);
            for (int step = 0; step < 25; step++) {
                if (step == persistAt) {
                    byte[] file = EntailStateFile.encode(org.eclipse.jgit.lib.ObjectId.zeroId(),
                            EntailStateFile.fingerprint(onto), kept.export());
                    restored = Entailer.restore(onto, EntailStateFile.decode(file).state());
                    assertThat(snapshot(restored)).as("%s round %d: just restored", seed, round)
                            .isEqualTo(snapshot(kept));
                }
                next = restored == null ? randomChanges(rnd, live, next, kept)
                        : randomChanges(rnd, live, next, kept, restored);
                var keptRegion = kept.apply();
                if (restored != null) {
                    assertThat(restored.apply()).as("%s round %d step %d: region", seed, round, step)
                            .isEqualTo(keptRegion);
                    assertThat(snapshot(restored)).as("%s round %d step %d", seed, round, step)
                            .isEqualTo(snapshot(kept));
                    assertThat(restored.assertions()).isEqualTo(live);
                }
            }
            Entailer scratch = new Entailer(onto);
            live.forEach(scratch::addAssertion);
            scratch.apply();
            assertThat(snapshot(restored)).as("%s round %d: against a recomputation", seed, round)
                    .isEqualTo(snapshot(scratch));
        }
    }

    @Test
    void restoreRejectsAStateWhoseRanksDisagreeWithItsAssertions() {
        Entailer e = new Entailer(ONTOLOGY);
        e.addAssertion("a1", new Entailer.Triple("x", "activates", "y"));
        e.apply();
        Entailer.State s = e.export();
        Entailer.Triple asserted = new Entailer.Triple("x", "activates", "y");
        int i = s.triples().indexOf(asserted);
        int[] wrong = s.ranks().clone();
        wrong[i] = 1;
        assertThatThrownBy(() -> Entailer.restore(ONTOLOGY,
                new Entailer.State(s.triples(), wrong, s.assertions()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a1");
        int[] orphan = s.ranks().clone();
        orphan[s.triples().indexOf(new Entailer.Triple("x", "regulates", "y"))] = 0;
        assertThatThrownBy(() -> Entailer.restore(ONTOLOGY,
                new Entailer.State(s.triples(), orphan, s.assertions()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no assertion");
        e.addAssertion("a2", new Entailer.Triple("y", "part_of", "z"));
        assertThatThrownBy(e::export).isInstanceOf(IllegalStateException.class);
    }

    private static TreeMap<String, String> snapshot(Entailer e) {
        TreeMap<String, String> out = new TreeMap<>();
        for (Entailer.Triple t : e.entailed()) {
            out.put(t.toString(), e.rank(t) + " " + EntailSync.receipt(e, t).bundles());
        }
        return out;
    }

    private static Ontology randomOntology(Random rnd) {
        List<String> transitive = new ArrayList<>();
        TreeMap<String, String> inverse = new TreeMap<>();
        TreeMap<String, String> sub = new TreeMap<>();
        List<Ontology.Chain> chains = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            switch (rnd.nextInt(5)) {
                case 0 -> transitive.add("p" + p);
                case 1 -> inverse.put("p" + p, "p" + rnd.nextInt(4));
                case 2 -> sub.put("p" + p, "p" + rnd.nextInt(4));
                case 3 -> chains.add(new Ontology.Chain(List.of("p" + p, "p" + rnd.nextInt(4)), "p" + rnd.nextInt(4)));
                default -> { }
            }
        }
        return new Ontology(transitive, inverse, sub, chains);
    }

    /**
     * One to three random changes to the live assertions, made to each of {@code targets} too: a
     * third of the time an existing assertion (in id order) goes, else a new one comes. Returns the
     * next fresh id number.
     */
    private static int randomChanges(Random rnd, Map<String, Entailer.Triple> live, int next, Entailer... targets) {
        int changes = 1 + rnd.nextInt(3);
        for (int c = 0; c < changes; c++) {
            if (!live.isEmpty() && rnd.nextInt(3) == 0) {
                List<String> ids = new ArrayList<>(live.keySet());
                ids.sort(null);
                String gone = ids.get(rnd.nextInt(ids.size()));
                live.remove(gone);
                for (Entailer e : targets) {
                    e.removeAssertion(gone);
                }
            } else {
                String id = "a" + next++;
                Entailer.Triple t = new Entailer.Triple("n" + rnd.nextInt(7), "p" + rnd.nextInt(4),
                        "n" + rnd.nextInt(7));
                live.put(id, t);
                for (Entailer e : targets) {
                    e.addAssertion(id, t);
                }
            }
        }
        return next;
    }
}
