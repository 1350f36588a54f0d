package dev.palimpsest.files;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.Dependent;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.ProvenanceNode;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Receipts count as derivation: an artifact resting on an assertion depends on the assertion's source. */
class DerivationReceiptsTest {
    @TempDir
    Path dir;

    @Test
    void artifactsReachTheirMembersThroughReceipts() throws Exception {
        FactId src = FactId.of("doc-1");
        FactId a1 = FactId.of("a1");
        FactId m1 = FactId.of("m1");
        try (Store s = TestStores.init(dir)) {
            ProducedFilesTest.source(s, "doc-1");
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.ASSERTION, "ERK regulates apoptosis").id(a1)
                    .refs(List.of(new RefSpec(src, null, RefRole.SOURCE, null)))
                    .grounding(Grounding.triple("ERK", "regulates", "apoptosis")));
            tx.commit();
            tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.MERGE, "merged view").id(m1)
                    .grounding(new Grounding(null, null, null, new Receipt(List.of(List.of(Pin.of(a1)))), List.of(), false)));
            tx.commit();
            assertThat(s.derivations().dependents(src, s.head(), true)).containsExactly(new Dependent(a1, 1, a1, true),
                    new Dependent(m1, 2, a1, true));
            assertThat(s.derivations().dependents(a1, s.head(), false)).containsExactly(new Dependent(m1, 1, m1, true));
            tx = s.begin(ALICE);
            tx.retract(m1, "wrong merge");
            tx.commit();
            assertThat(s.derivations().dependents(src, s.head(), true)).containsExactly(new Dependent(a1, 1, a1, true),
                    new Dependent(m1, 2, a1, false));
            ProvenanceNode root = s.derivations().explain(m1, s.head());
            assertThat(root.status()).isEqualTo(ProvenanceNode.Status.RETRACTED);
            assertThat(root.children()).singleElement().satisfies(n -> {
                assertThat(n.id()).isEqualTo(a1);
                assertThat(n.role().value()).isEqualTo("receipt");
                assertThat(n.children()).singleElement().satisfies(c -> assertThat(c.id()).isEqualTo(src));
            });
        }
    }
}
