package dev.palimpsest.temporal;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.extension.ExtendWith;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.FactSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.bench.ReceiptsGraphGen;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seeded random history written through the public API, and so through the gate — random
 * asserts, revisions, retractions, re-adds and refs (with the invalid transactions the gate
 * rejects), supersessions, merges, subsumptions, a second actor's key (an agent, in a store whose
 * {@code agents_may} grants it everything), an ingest batch with receipts, entailment and a cleanup cascade — passes the audit with no violation: the gate never
 * writes what the rule book forbids. The seed comes from {@link Seeds}
 * ({@code -Dpalimpsest.seed=N} replays it).
 */
@ExtendWith(Seeds.class)
class GateHistoryAuditTest {
    private static final ActorName BOB = ActorName.of("bob");

    @TempDir
    Path dir;

    @Test
    void aSeededRandomHistoryWrittenThroughTheGateAuditsClean(Seed seed) throws Exception {
        Random rnd = seed.random();
        int landed;
        try (Store s = Store.initializer(dir.resolve("store.git")).home(new KeyHome(dir.resolve("home")))
                .actor(TestStores.ALICE).options(dev.palimpsest.model.StoreOptions.defaults().withFsync(false))
                .agentsMay(java.util.EnumSet.allOf(dev.palimpsest.model.AgentPermission.class)).create()) {
            HistoryGenerator g = new HistoryGenerator(s, new TemporalModel(s.head()), seed.value(), 12);
            g.run(120);
            s.begin(TestStores.ALICE).addKey(BOB, new KeyHome(dir.resolve("home")).generateKey(BOB), KeyRole.AGENT)
                    .commit();
            landed = consolidate(s, rnd, 12) + layers(s, seed.derive(1));
            assertThat(landed).as("%s: some consolidations and layered writes landed", seed).isPositive();
            AuditReport r = audit(s.gitDir());
            assertThat(r.violations()).as("%s", seed).isEmpty();
            assertThat(r.commits()).isGreaterThan(landed);
        }
    }

    /** Random supersessions, merges and subsumptions by bob; the ones the gate rejects are skipped. */
    private static int consolidate(Store s, Random rnd, int tries) throws Exception {
        int landed = 0;
        for (int i = 0; i < tries; i++) {
            FactId a = FactId.of(String.format("f%02d", rnd.nextInt(12)));
            FactId b = FactId.of(String.format("f%02d", rnd.nextInt(12)));
            var t = s.begin(BOB);
            try {
                switch (rnd.nextInt(3)) {
                    case 0 -> t.supersede(a, FactSpec.of(Kind.CLAIM, "supersedes " + a + " (" + i + ")").confidence(0.5));
                    case 1 -> t.merge(List.of(a, b), FactSpec.of(Kind.CLAIM, "merges " + a + " and " + b));
                    default -> t.subsume(a, FactSpec.of(Kind.CLAIM, "subsumes " + a + " (" + i + ")").refs(List.of(RefSpec.cites(b))));
                }
                t.commit();
                landed++;
            } catch (RejectedException | IllegalArgumentException e) {
                // a random pick the gate refuses: nothing was written
            }
        }
        return landed;
    }

    /** A seeded ingest batch with receipts, entailment, and a cleanup cascade of one document. */
    private static int layers(Store s, long seed) throws Exception {
        ReceiptsGraphGen gen = new ReceiptsGraphGen(seed, 6, 25, 4, 3, 12, 4);
        s.receipts().ingest(TestStores.ALICE, gen.batchYaml().getBytes(StandardCharsets.UTF_8), false);
        s.receipts().entail(TestStores.ALICE);
        CleanupPlan plan = s.receipts().planRetractSource(List.of(FactId.of(ReceiptsGraphGen.doc(
                gen.retracted.first()))), "withdrawn by the journal");
        s.receipts().apply(BOB, plan);
        return 3;
    }

    private static AuditReport audit(Path gitDir) throws Exception {
        try (Auditor a = Auditor.open(gitDir)) {
            return a.audit(AuditProgress.none());
        }
    }
}
