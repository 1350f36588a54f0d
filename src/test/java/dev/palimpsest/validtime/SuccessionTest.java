package dev.palimpsest.validtime;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.cli.Run;
import dev.palimpsest.model.ClaimResult;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefRole;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A later claim on a single-valued subject and predicate closes the earlier one's validity where it
 * starts, recorded in the new claim (no old file rewritten), and the two are no contradiction; what
 * overlaps with another object still is.
 */
class SuccessionTest {
    private static final Instant Y2019 = Instant.parse("2019-01-01T00:00:00Z");
    private static final Instant Y2021 = Instant.parse("2021-03-01T00:00:00Z");
    private static final Instant Y2022 = Instant.parse("2022-06-01T00:00:00Z");
    private static final Instant Y2023 = Instant.parse("2023-01-01T00:00:00Z");

    @TempDir
    Path dir;

    @Test
    void aLaterCeoClosesTheEarlierAndIsNoContradiction() throws Exception {
        FactId doc = FactId.of("minutes");
        try (Store s = TestStores.init(dir)) {
            var t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, "Board minutes on who leads Acme.").id(doc));
            t.commit();
            ClaimResult ada = s.claims().claim(ALICE, ClaimSpec.of("Acme", "ceo", "Ada", doc).id(FactId.of("c-ada")));
            CommitId adaBlob = ada.commit();
            ClaimResult bob = s.claims().claim(ALICE, ClaimSpec.of("Acme", "ceo", "Bob", doc).id(FactId.of("c-bob"))
                    .validFrom(Y2021));
            assertThat(bob.conflicts()).as("a succession, not a contradiction").isEmpty();
            assertThat(((dev.palimpsest.model.FactRead.Found) s.read(FactId.of("c-bob"))).fact().refs()).anyMatch(r -> r.id().equals(FactId.of("c-ada"))
                    && r.role().equals(RefRole.INVALIDATES));
            assertThat(s.factExistsAt(FactId.of("c-ada")).commit()).as("the old file is not rewritten").isEqualTo(adaBlob);
            assertThat(s.claims().contradictions()).isEmpty();
            assertThat(s.factValidAt(FactId.of("c-ada"), Y2019)).isTrue();
            assertThat(s.factValidAt(FactId.of("c-ada"), Y2021)).isFalse();
            assertThat(s.factValidAt(FactId.of("c-bob"), Y2021)).isTrue();
            assertThat(s.validity(FactId.of("c-ada"), s.head()).orElseThrow().end()).contains(Y2021);
            var at = s.claims().at(s.head());
            assertThat(at.validAt(Y2019).current("acme")).extracting(ClaimView::object).containsExactly("Ada");
            assertThat(at.validAt(Y2022).current("acme")).extracting(ClaimView::object).containsExactly("Bob");
            assertThat(at.current("acme")).hasSize(2);

            // learnt late: Cy led from 2022 on, though Bob's claim is open-ended -> Cy closes Bob
            s.claims().claim(ALICE, ClaimSpec.of("Acme", "ceo", "Cy", doc).id(FactId.of("c-cy")).validFrom(Y2022));
            // learnt later still: Dee led from 2019 until Cy; she closes Ada at 2019 and is closed by Bob
            ClaimResult dee = s.claims().claim(ALICE, ClaimSpec.of("Acme", "ceo", "Dee", doc).id(FactId.of("c-dee"))
                    .validFrom(Y2019.plusSeconds(86400 * 30)));
            assertThat(dee.conflicts()).isEmpty();
            assertThat(s.claims().contradictions()).isEmpty();
            assertThat(at.validAt(Y2019).current("acme")).extracting(ClaimView::object).containsExactly("Ada");
            CommitId head = s.head();
            assertThat(s.claims().at(head).validAt(Y2021.minusSeconds(1)).current("acme")).extracting(ClaimView::object)
                    .containsExactly("Dee");
            assertThat(s.claims().at(head).validAt(Y2021).current("acme")).extracting(ClaimView::object)
                    .containsExactly("Bob");
            assertThat(s.claims().at(head).validAt(Y2023).current("acme")).extracting(ClaimView::object)
                    .containsExactly("Cy");

            // an overlapping claim with another object, not later than the others' start: a contradiction
            ClaimResult eve = s.claims().claim(ALICE, ClaimSpec.of("Acme", "ceo", "Eve", doc).id(FactId.of("c-eve"))
                    .validFrom(Y2022).validUntil(Y2023));
            assertThat(eve.conflicts()).extracting(c -> c.id().value()).contains("c-cy");
            assertThat(s.claims().at(s.head()).validAt(Y2022).contradictions()).hasSize(1);
            assertThat(s.claims().at(s.head()).validAt(Y2019).contradictions()).isEmpty();

            // retracting the successor reopens the predecessor
            s.begin(ALICE).retract(FactId.of("c-bob"), "Bob never took office").commit();
            assertThat(s.factValidAt(FactId.of("c-dee"), Y2022.minusSeconds(1))).isTrue();
        }
        try (Auditor a = Auditor.open(dir.resolve("store.git"))) {
            assertThat(a.audit(dev.palimpsest.model.AuditProgress.none()).violations()).isEmpty();
        }
        Run current = Run.inStore(dir.resolve("store.git").toString(), dir.resolve("home").toString(),
                "current", "acme", "--valid-at", "2019-06-01");
        assertThat(current.code()).as(current.err()).isZero();
        assertThat(current.out()).contains("Dee").doesNotContain("Bob").contains("valid [2019-01-31T00:00:00Z, ");
        Run contradictions = Run.inStore(dir.resolve("store.git").toString(), dir.resolve("home").toString(),
                "contradictions", "--valid-at", "2019-06-01", "--json");
        assertThat(contradictions.json()).isEmpty();
    }
}
