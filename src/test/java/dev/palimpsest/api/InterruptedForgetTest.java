package dev.palimpsest.api;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A forget whose process dies after its commit landed and before the keys were destroyed leaves
 * its intent in the vault; the next open finishes it (keys destroyed, caches scrubbed, intent
 * deleted), and an intent a live forget holds is left alone.
 */
class InterruptedForgetTest {
    private static final String SECRET = "Zelda Quixote lives at 12 Harbour Lane";

    @TempDir
    Path dir;

    private Store open() throws Exception {
        return Store.open(dir.resolve("store.git"), new KeyHome(dir.resolve("home")), StoreOptions.defaults().withFsync(false));
    }

    private static long intents(Path gitDir) throws Exception {
        Path d = gitDir.resolve("palimpsest-vault").resolve("forgetting");
        if (!Files.isDirectory(d)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(d)) {
            return s.count();
        }
    }

    @Test
    void theNextOpenFinishesAForgetInterruptedAfterItsCommit() throws Exception {
        FactId a = FactId.of("a");
        FactId kept = FactId.of("kept");
        Path gitDir;
        Path key;
        try (Store s = TestStores.init(dir)) {
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), SECRET).id(a).asSensitive());
            tx.assertFact(FactSpec.of(Kind.of("note"), "Kept words, sealed too.").id(kept).asSensitive());
            tx.commit();
            assertThat(s.recall().search(SearchQuery.builder("harbour").build())).extracting(h -> h.id()).contains(a);
            gitDir = s.gitDir();
            key = s.gitDir().resolve("palimpsest-vault").resolve(dev.palimpsest.internal.layout.StorePaths.shard(a))
                    .resolve("a.key");
            Erasure.Landed landed = s.erasure().commit(ALICE, List.of(new Operation.Forget(a, "erasure", null)));
            assertThat(landed.result().forgotten()).containsExactly(a);
            landed.intent().release(); // the process dies here: its lock goes, its intent stays
        }
        assertThat(key).as("destroyed before main showed the tombstone").doesNotExist();
        assertThat(intents(gitDir)).isEqualTo(1);

        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try (Store s = open()) {
            System.setErr(saved);
            assertThat(key).doesNotExist();
            assertThat(((dev.palimpsest.model.FactRead.Found) s.read(kept, s.head())).fact().body())
                    .as("a fact not forgotten keeps its key").isEqualTo("Kept words, sealed too.");
            assertThat(gitDir.resolve("palimpsest-index").resolve("search-v1")).as("scrubbed on open").doesNotExist();
            assertThat(intents(gitDir)).isZero();
            assertThat(catchThrowableOfType(() -> s.read(a, s.head()), NotFoundException.class))
                    .hasMessageContaining("forgotten at");
            assertThat(s.erasure().unlearnCheck(a).readable()).isEmpty();
        } finally {
            System.setErr(saved);
        }
        try (Auditor au = Auditor.open(gitDir)) {
            assertThat(au.audit(AuditProgress.none()).violations()).isEmpty();
        }
    }

    @Test
    void anOpenLeavesTheIntentOfAForgetStillInFlightAndACleanOpenDoesNothing() throws Exception {
        FactId a = FactId.of("a");
        FactId b = FactId.of("b");
        try (Store s = TestStores.init(dir)) {
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), SECRET).id(a).asSensitive());
            tx.assertFact(FactSpec.of(Kind.of("note"), "another secret of some length").id(b).asSensitive());
            tx.commit();
            s.erasure().forget(ALICE, List.of(b), "first", false);
            assertThat(intents(s.gitDir())).as("a finished forget leaves no intent").isZero();
            Erasure.Landed inFlight = s.erasure().commit(ALICE, List.of(new Operation.Forget(a, "second", null)));
            try (Store other = open()) {
                assertThat(intents(s.gitDir())).as("held by a live forget").isEqualTo(1);
                assertThat(s.gitDir().resolve("palimpsest-vault").resolve(
                        dev.palimpsest.internal.layout.StorePaths.shard(a)).resolve("a.key"))
                        .as("destroyed before the commit landed").doesNotExist();
            } finally {
                inFlight.intent().done();
            }
        }
        try (Store s = open()) {
            assertThat(intents(s.gitDir())).isZero();
        }
    }
}
