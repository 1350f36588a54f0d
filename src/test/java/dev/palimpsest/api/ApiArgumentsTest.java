package dev.palimpsest.api;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.FactRead;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Arguments are checked where they enter the API, with messages that name them. */
class ApiArgumentsTest {
    @TempDir
    Path dir;

    @Test
    void anAuditWithoutProgressIsRejectedAtTheBoundaryNamingTheAlternative() throws Exception {
        try (Store s = TestStores.init(dir); Auditor a = Auditor.open(s.gitDir())) {
            assertThatThrownBy(() -> a.audit((AuditProgress) null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("progress").hasMessageContaining("AuditProgress.none()");
            assertThatThrownBy(() -> a.auditUpTo(s.head(), null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("progress");
            assertThatThrownBy(() -> a.auditRange("main", null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("progress");
            assertThat(a.audit(AuditProgress.none()).clean()).isTrue();
        }
    }

    @Test
    void storeReadsNameTheNullArgument() throws Exception {
        try (Store s = TestStores.init(dir)) {
            assertThatThrownBy(() -> s.read(null, s.head())).hasMessage("id");
            assertThatThrownBy(() -> s.factLiveAtCommit(FactId.of("x"), null)).hasMessage("at");
            assertThatThrownBy(() -> s.inbound(null, s.head())).hasMessage("target");
            assertThatThrownBy(() -> s.log(-1)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void anInitializerWithoutActorOrHomeCreatesNothing() {
        Path target = dir.resolve("store.git");
        assertThatThrownBy(() -> Store.initializer(target).home(new KeyHome(dir.resolve("home"))).create())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("actor(");
        assertThatThrownBy(() -> Store.initializer(target).actor(ALICE).create())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("home(");
        assertThat(Files.exists(target)).isFalse();
    }

    @Test
    void aTransactionCommitsOnceAndAMergeNeedsTwoDistinctInputs() throws Exception {
        try (Store s = TestStores.init(dir)) {
            Transaction tx = s.begin(ALICE);
            FactSpec spec = FactSpec.of(Kind.CLAIM, "merged");
            assertThatThrownBy(() -> tx.merge(List.of(FactId.of("a")), spec)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> tx.merge(List.of(FactId.of("a"), FactId.of("a")), spec))
                    .isInstanceOf(IllegalArgumentException.class);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "once"));
            tx.commit();
            assertThatThrownBy(tx::commit).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aSpecMintsAnIdOfItsKindUnlessOneIsGiven() throws Exception {
        try (Store s = TestStores.init(dir)) {
            Transaction tx = s.begin(ALICE);
            FactId minted = tx.assertFact(FactSpec.of(Kind.HYPOTHESIS, "minted"));
            FactId chosen = tx.assertFact(FactSpec.of(Kind.CLAIM, "chosen").id(FactId.of("chosen-1")).confidence(0.25)
                    .refs(dev.palimpsest.model.RefSpec.of(minted, RefRole.of("derived_from"))));
            var landed = tx.commit();
            assertThat(minted.value()).matches("hypothesis-[0-9a-f]{12}");
            assertThat(chosen).isEqualTo(FactId.of("chosen-1"));
            assertThat(landed.written()).containsExactly(minted, chosen);
            FactRead.Found f = (FactRead.Found) s.read(chosen, landed.id());
            assertThat(f.fact().confidence()).isEqualTo(0.25);
            assertThat(f.fact().refs()).extracting(Ref::role).containsExactly(RefRole.of("derived_from"));
        }
    }

    @Test
    void anAcknowledgementWithoutANoteSaysWhatWasReviewed() throws Exception {
        try (Store s = TestStores.init(dir)) {
            Transaction tx = s.begin(ALICE);
            FactId item = tx.assertFact(FactSpec.of(Kind.CLAIM, "to be reviewed"));
            tx.commit();
            var ack = s.receipts().acknowledge(ALICE, item);
            FactRead.Found f = (FactRead.Found) s.read(ack.written().get(0), ack.id());
            assertThat(f.fact().body()).isEqualTo("reviewed " + item);
            assertThat(f.fact().refs()).extracting(Ref::role).containsExactly(RefRole.ACKNOWLEDGES);
            assertThatThrownBy(() -> s.receipts().acknowledge(ALICE, item, null)).hasMessage("note");
        }
    }

    @Test
    void anInitializerSaysWhetherItGeneratedTheActorsKey() throws Exception {
        KeyHome home = new KeyHome(dir.resolve("home"));
        StoreInitializer first = Store.initializer(dir.resolve("a.git")).home(home).actor(ALICE);
        first.create().close();
        assertThat(first.generatedKey()).hasValueSatisfying(p -> assertThat(p).isRegularFile().startsWith(home.dir()));
        StoreInitializer second = Store.initializer(dir.resolve("b.git")).home(home).actor(ALICE);
        second.create().close();
        assertThat(second.generatedKey()).isEmpty();
    }
}
