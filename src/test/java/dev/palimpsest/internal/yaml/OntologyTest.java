package dev.palimpsest.internal.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class OntologyTest {
    @Test
    void chainRulesAreSortedByFirstThenSecondPredicateThenImplication() {
        Ontology o = new Ontology(List.of("a"), null, null, List.of(new Ontology.Chain(List.of("b", "z"), "c"),
                new Ontology.Chain(List.of("c", "b"), "d"), new Ontology.Chain(List.of("b", "a"), "e")));
        assertThat(o.chainRules()).containsExactly(new Ontology.Chain(List.of("a", "a"), "a"),
                new Ontology.Chain(List.of("b", "a"), "e"), new Ontology.Chain(List.of("b", "z"), "c"),
                new Ontology.Chain(List.of("c", "b"), "d"));
    }

    @Test
    void aMergeUnitesBothAxiomSetsAndTheOthersKeysReplaceTheseOnes() {
        Ontology.Chain chain = new Ontology.Chain(List.of("q", "r"), "s");
        Ontology mine = new Ontology(List.of("p"), map("a", "b"), map("c", "d"), List.of(chain));
        Ontology other = new Ontology(List.of("t"), map("a", "x"), map("e", "f"), List.of());
        TreeMap<String, String> sub = map("c", "d");
        sub.put("e", "f");
        assertThat(mine.merge(other)).isEqualTo(new Ontology(List.of("p", "t"), map("a", "x"), sub, List.of(chain)));
    }

    @Test
    void everyPredicateOfEveryAxiomMustBeValid() {
        for (String bad : new String[] {"Bad", "1x", ""}) {
            invalid(() -> new Ontology(List.of("p", bad), null, null, List.of()));
            invalid(() -> new Ontology(List.of(), map(bad, "p"), null, List.of()));
            invalid(() -> new Ontology(List.of(), map("p", bad), null, List.of()));
            invalid(() -> new Ontology(List.of(), null, map(bad, "p"), List.of()));
            invalid(() -> new Ontology(List.of(), null, map("p", bad), List.of()));
            invalid(() -> new Ontology.Chain(List.of("p", bad), "q"));
            invalid(() -> new Ontology.Chain(List.of(bad, "p"), "q"));
            invalid(() -> new Ontology.Chain(List.of("p", "q"), bad));
        }
        assertThat(new Ontology(List.of("p"), map("p", "q"), map("q", "r"), List.of()).isEmpty()).isFalse();
    }

    private static void invalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable c) {
        assertThatThrownBy(c).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must match");
    }

    private static TreeMap<String, String> map(String k, String v) {
        TreeMap<String, String> m = new TreeMap<>();
        m.put(k, v);
        return m;
    }
}
