package dev.palimpsest.internal.audit;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Validity;
import dev.palimpsest.model.Violation;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A revision that changes a claim's validity is held to valid-time order at both ends: the gate
 * rejects one that puts a succession ref it carries, or one to it from a live claim, out of order
 * ({@code invalid-succession}, nothing written), and the audit flags the same revision forged past
 * the gate with that rule; a revision that keeps the order lands and audits clean.
 */
class RevisedSuccessionTest {
    private static final Instant Y2018 = Instant.parse("2018-01-01T00:00:00Z");
    private static final Instant Y2019 = Instant.parse("2019-01-01T00:00:00Z");
    private static final Instant Y2020 = Instant.parse("2020-01-01T00:00:00Z");
    private static final Instant Y2021 = Instant.parse("2021-03-01T00:00:00Z");
    private static final Instant Y2022 = Instant.parse("2022-01-01T00:00:00Z");
    private static final FactId ADA = FactId.of("c-ada");
    private static final FactId BOB = FactId.of("c-bob");
    private static final FactId DEE = FactId.of("c-dee");

    @TempDir
    Path dir;

    /** Ada from 2019; Bob from 2021 invalidates her; Dee from 2020, learnt late, invalidates Ada and is invalidated by Bob. */
    @BeforeEach
    void claims() throws Exception {
        FactId doc = FactId.of("minutes");
        try (Store s = TestStores.init(dir)) {
            var t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, "Board minutes on who leads Acme.").id(doc));
            t.commit();
            s.claims().claim(ALICE, ClaimSpec.of("Acme", "ceo", "Ada", doc).id(ADA).validFrom(Y2019));
            s.claims().claim(ALICE, ClaimSpec.of("Acme", "ceo", "Bob", doc).id(BOB).validFrom(Y2021));
            s.claims().claim(ALICE, ClaimSpec.of("Acme", "ceo", "Dee", doc).id(DEE).validFrom(Y2020));
            assertThat(fact(s, BOB).refs()).anyMatch(r -> r.id().equals(ADA) && r.role().equals(RefRole.INVALIDATES));
            assertThat(fact(s, DEE).refs()).anyMatch(r -> r.id().equals(ADA) && r.role().equals(RefRole.INVALIDATES))
                    .anyMatch(r -> r.id().equals(BOB) && r.role().equals(RefRole.INVALIDATED_BY));
        }
    }

    private Store open() throws Exception {
        return Store.open(dir.resolve("store.git"), new KeyHome(dir.resolve("home")));
    }

    private static Fact fact(Store s, FactId id) throws Exception {
        return ((FactRead.Found) s.read(id)).fact();
    }

    private static void revise(Store s, FactId id, Optional<Instant> from, Optional<Instant> until) throws Exception {
        s.begin(ALICE).revise(id, Optional.empty(), List.of(), from, until).commit();
    }

    /** The violations of a revision the gate rejects, after checking that nothing was written. */
    private static List<Violation> rejected(Store s, FactId id, Optional<Instant> from, Optional<Instant> until)
            throws Exception {
        CommitId before = s.head();
        RejectedException e = (RejectedException) org.assertj.core.api.Assertions.catchThrowable(
                () -> revise(s, id, from, until));
        assertThat(e).as("rejected").isNotNull();
        assertThat(s.head()).as("nothing written").isEqualTo(before);
        return e.violations();
    }

    @Test
    void theGateRejectsARevisionThatPutsACarriedOrAnInboundSuccessionOutOfOrder() throws Exception {
        try (Store s = open()) {
            List<Violation> early = rejected(s, BOB, Optional.of(Y2018), Optional.empty());
            assertThat(early).extracting(Violation::rule).containsOnly(Rule.INVALID_SUCCESSION);
            assertThat(early).extracting(Violation::message)
                    .anySatisfy(m -> assertThat(m).contains("invalidates c-ada").contains("not before"))
                    .anySatisfy(m -> assertThat(m).contains("c-dee").contains("invalidated_by c-bob"));

            List<Violation> late = rejected(s, ADA, Optional.of(Y2022), Optional.empty());
            assertThat(late).extracting(Violation::rule).containsOnly(Rule.INVALID_SUCCESSION);
            assertThat(late).extracting(Violation::message)
                    .anySatisfy(m -> assertThat(m).contains("c-bob").contains("invalidates c-ada"))
                    .anySatisfy(m -> assertThat(m).contains("c-dee").contains("invalidates c-ada"));

            List<Violation> open = rejected(s, BOB, Optional.of(Instant.MIN), Optional.empty());
            assertThat(open).extracting(Violation::rule).contains(Rule.INVALID_SUCCESSION);
            assertThat(open).extracting(Violation::message).anySatisfy(m -> assertThat(m).contains("valid_from"));

            // the order kept: Ada gains an end, Bob starts a little later, still after Dee and Ada
            revise(s, ADA, Optional.empty(), Optional.of(Instant.parse("2030-01-01T00:00:00Z")));
            revise(s, BOB, Optional.of(Instant.parse("2021-06-01T00:00:00Z")), Optional.empty());
            assertThat(s.validity(ADA, s.head()).orElseThrow().end()).contains(Y2020);
            assertThat(s.validity(DEE, s.head()).orElseThrow().end()).contains(Instant.parse("2021-06-01T00:00:00Z"));
            // a body-only revision of a claim carrying succession refs is not re-checked and lands
            s.begin(ALICE).revise(BOB, "Acme ceo Bob (per the minutes)", List.of()).commit();
        }
        assertThat(GateHistory.audit(dir.resolve("store.git")).violations()).isEmpty();
    }

    @Test
    void theAuditFlagsTheSameRevisionsForgedPastTheGate() throws Exception {
        Fact bob;
        Fact ada;
        try (Store s = open()) {
            bob = fact(s, BOB);
            ada = fact(s, ADA);
        }
        String bobPath = StorePaths.factPath(bob.kind(), BOB);
        ObjectId early = Forge.by(dir.resolve("store.git"), new KeyHome(dir.resolve("home")), "alice").put(bobPath, FactCodec.encode(bob.withValidity(Validity.startingAt(Y2018))))
                .trailers("alice", "revise", "Palimpsest-Fact", BOB.value()).commit();
        String adaPath = StorePaths.factPath(ada.kind(), ADA);
        ObjectId late = Forge.by(dir.resolve("store.git"), new KeyHome(dir.resolve("home")), "alice")
                .put(adaPath, FactCodec.encode(ada.withValidity(Validity.startingAt(Y2022))))
                .trailers("alice", "revise", "Palimpsest-Fact", ADA.value()).commit();
        List<AuditViolation> found = GateHistory.audit(dir.resolve("store.git")).violations();
        assertThat(found).filteredOn(v -> v.commit().hex().equals(early.name()))
                .extracting(v -> v.rule().id() + " " + v.path())
                .contains("invalid-succession " + bobPath).containsOnly("invalid-succession " + bobPath);
        assertThat(found).filteredOn(v -> v.commit().hex().equals(early.name())).extracting(AuditViolation::message)
                .anySatisfy(m -> assertThat(m).contains("invalidates c-ada"))
                .anySatisfy(m -> assertThat(m).contains("c-dee"));
        assertThat(found).filteredOn(v -> v.commit().hex().equals(late.name()))
                .extracting(v -> v.rule().id() + " " + v.path())
                .contains("invalid-succession " + adaPath).containsOnly("invalid-succession " + adaPath);
    }
}
