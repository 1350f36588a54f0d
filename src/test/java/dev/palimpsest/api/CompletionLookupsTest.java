package dev.palimpsest.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Store#factIds} and {@link Claims#entities}: prefix, order, liveness at the commit asked, bound. */
class CompletionLookupsTest {
    @TempDir
    Path dir;

    @Test
    void factIdsAreTheLiveIdsWithThePrefixInIdOrderAsOfTheCommitAskedAndBounded() throws Exception {
        try (Store store = TestStores.init(dir)) {
            Transaction tx = store.begin(TestStores.ALICE);
            for (String id : List.of("doc-b", "doc-a", "doc-c", "memo-1")) {
                tx.assertFact(FactSpec.of(Kind.SOURCE, "text of " + id).id(FactId.of(id)));
            }
            CommitId before = tx.commit().id();
            Transaction retract = store.begin(TestStores.ALICE);
            retract.retract(FactId.of("doc-a"), "wrong");
            retract.commit();
            assertThat(store.factIds("doc-", 10, store.head())).extracting(FactId::value).containsExactly("doc-b", "doc-c");
            assertThat(store.factIds("doc-", 10, before)).extracting(FactId::value)
                    .containsExactly("doc-a", "doc-b", "doc-c");
            assertThat(store.factIds("", 2, before)).extracting(FactId::value).containsExactly("doc-a", "doc-b");
            assertThat(store.factIds("doc-", 0, before)).isEmpty();
            assertThat(store.factIds("zzz", 10, before)).isEmpty();
            assertThatThrownBy(() -> store.factIds("", -1, before)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.factIds("", 1, CommitId.of("1".repeat(40))))
                    .isInstanceOf(NotFoundException.class);
        }
    }

    @Test
    void entitiesAreTheKeysWithALiveClaimThatStartWithTheKeyOfThePrefix() throws Exception {
        try (Store store = TestStores.init(dir)) {
            Transaction tx = store.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.SOURCE, "the incident report").id(FactId.of("src")));
            tx.commit();
            List<RefSpec> source = List.of(new RefSpec(FactId.of("src"), null, RefRole.SOURCE, null));
            store.claims().claim(TestStores.ALICE, new ClaimSpec(FactId.of("c1"), "Auth Service", "times out after",
                    "30s", source, null, null, null));
            CommitId withOld = store.claims().claim(TestStores.ALICE, new ClaimSpec(FactId.of("c2"), "auth-old", "is",
                    "legacy", source, null, null, null)).commit();
            store.claims().claim(TestStores.ALICE, new ClaimSpec(FactId.of("c3"), "Billing", "is", "late", source, null,
                    null, null));
            Transaction retract = store.begin(TestStores.ALICE);
            retract.retract(FactId.of("c2"), "decommissioned");
            retract.commit();
            assertThat(store.claims().entities("AUTH", 10, store.head())).containsExactly("auth service");
            assertThat(store.claims().entities("auth", 10, withOld)).containsExactly("auth old", "auth service");
            assertThat(store.claims().entities("", 10, store.head())).containsExactly("auth service", "billing");
            assertThat(store.claims().entities("", 1, store.head())).containsExactly("auth service");
        }
    }
}
