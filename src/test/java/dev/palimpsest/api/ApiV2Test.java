package dev.palimpsest.api;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The v2 forms: reads at the tip without a commit, optional finds, claims at a commit, request builders. */
class ApiV2Test {
    private static final CommitId NO_SUCH_COMMIT = CommitId.of("0123456789abcdef0123456789abcdef01234567");

    @TempDir
    Path dir;

    private FactId docs;
    private CommitId first;

    private Store open() throws Exception {
        return Store.open(dir.resolve("store.git"), new KeyHome(dir.resolve("home")));
    }

    @BeforeEach
    void writeTwoVersionsOfAClaim() throws Exception {
        try (Store s = TestStores.init(dir)) {
            Transaction tx = s.begin(ALICE);
            docs = tx.assertFact(FactSpec.of(Kind.SOURCE, "the timeout of auth-service is 30s, later 15s").id(FactId.of("docs")));
            tx.commit();
            FactId old = s.claims().claim(ALICE, ClaimSpec.of("auth-service", "times out after", "30s", docs)).id();
            first = s.head();
            s.claims().supersede(ALICE, old, ClaimSpec.of("auth-service", "times out after", "15s", docs));
        }
    }

    @Test
    void findIsEmptyForAFactNeverWrittenAndMapsAStreamOfIds() throws Exception {
        try (Store s = open()) {
            List<Optional<FactRead>> found = List.of(docs, FactId.of("never-written")).stream().map(s::find).toList();
            assertThat(found.get(0)).containsInstanceOf(FactRead.Found.class);
            assertThat(found.get(1)).isEmpty();
            assertThat(s.find(FactId.of("never-written"), first)).isEmpty();
            assertThat(s.find(docs, first)).contains(s.read(docs, first));
        }
    }

    @Test
    void findAtACommitTheStoreDoesNotHoldIsStillNotFound() throws Exception {
        try (Store s = open()) {
            assertThatThrownBy(() -> s.find(docs, NO_SUCH_COMMIT)).isInstanceOf(NotFoundException.class);
        }
    }

    @Test
    void readsWithoutACommitAnswerAtTheTipOfMain() throws Exception {
        try (Store s = open()) {
            CommitId tip = s.head();
            assertThat(s.read(docs)).isEqualTo(s.read(docs, tip));
            assertThat(s.factExistsAt(docs)).isEqualTo(s.factExistsAt(docs, tip));
            assertThat(s.factLiveAtCommit(docs)).isTrue();
            assertThat(s.inbound(docs)).isEqualTo(s.inbound(docs, tip));
            assertThat(s.weight(docs)).isEqualTo(s.weight(docs, tip));
            assertThat(s.keys()).isEqualTo(s.keys(tip));
            assertThat(s.publicKey(ALICE)).isEqualTo(s.publicKey(ALICE, tip));
            assertThat(s.receipts().report()).isEqualTo(s.receipts().report(tip));
            assertThat(s.derivations().dependents(docs, true)).isEqualTo(s.derivations().dependents(docs, tip, true));
            assertThatThrownBy(() -> s.read(FactId.of("never-written"))).isInstanceOf(NotFoundException.class);
        }
    }

    @Test
    void currentWithoutNullsAnswersAtTheTipAndAtACommitThroughAt() throws Exception {
        try (Store s = open()) {
            assertThat(s.claims().current("auth-service")).extracting(ClaimView::object).containsExactly("15s");
            assertThat(s.claims().current("Auth Service", "times out after")).extracting(ClaimView::object)
                    .containsExactly("15s");
            assertThat(s.claims().current("auth-service", "owned by")).isEmpty();
            assertThat(s.claims().at(first).current("auth-service")).extracting(ClaimView::object).containsExactly("30s");
            assertThat(s.claims().chain("auth-service", "times out after")).hasSize(2);
            assertThat(s.claims().deadEnds("auth-service", 5).kept()).extracting(ClaimView::object).containsExactly("30s");
            assertThat(s.claims().at(first).deadEnds("auth-service", 5).kept()).isEmpty();
            assertThat(s.claims().contradictions()).isEmpty();
            assertThatThrownBy(() -> s.claims().at(NO_SUCH_COMMIT).current("auth-service"))
                    .isInstanceOf(NotFoundException.class);
        }
    }

    @Test
    @SuppressWarnings("removal")
    void theDeprecatedV1FormsKeepTheirNullMeanings() throws Exception {
        try (Store s = open()) {
            CommitId tip = s.head();
            assertThat(s.claims().current("auth-service", null, tip)).isEqualTo(s.claims().current("auth-service"));
            assertThat(s.claims().contradictions(null, first)).isEqualTo(s.claims().at(first).contradictions());
            assertThat(s.claims().chain("auth-service", "times out after", first))
                    .isEqualTo(s.claims().at(first).chain("auth-service", "times out after"));
            assertThat(s.recall().search(SearchQuery.of(null, List.of("auth-service")).at(null)))
                    .isEqualTo(s.recall().search(SearchQuery.builder().entity("auth-service").build()));
            assertThat(s.recall().brief(new BriefRequest(null, "timeouts", null, 800, 5)))
                    .isEqualTo(s.recall().brief(BriefRequest.builder().query("timeouts").maxTokens(800).build()));
        }
    }

    @Test
    void aBuiltQueryEqualsTheV1QueryWithTheSameValues() {
        @SuppressWarnings("removal")
        SearchQuery v1 = new SearchQuery("timeouts", List.of("auth-service"), first, 5, 2, Kind.CLAIM, "s", "p", ALICE, "r");
        SearchQuery v2 = SearchQuery.builder("timeouts").entity("auth-service").at(first).limit(5).hops(2)
                .kind(Kind.CLAIM).subject("s").predicate("p").actor(ALICE).run("r").build();
        assertThat(v2).isEqualTo(v1);
        assertThat(v2.toBuilder().build()).isEqualTo(v2);
        assertThat(v2.commit()).contains(first);
        assertThat(SearchQuery.builder("x").build().commit()).isEmpty();
        assertThatThrownBy(() -> SearchQuery.builder("x").limit(0).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BriefRequest.builder().entity(" ").build()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSearchBuiltAtACommitAnswersAsOfThatCommit() throws Exception {
        try (Store s = open()) {
            List<SearchHit> then = s.recall().search(SearchQuery.builder("timeout").entity("auth-service")
                    .kind(Kind.ENTITY_CLAIM).at(first).build());
            List<SearchHit> now = s.recall().search(SearchQuery.builder("timeout").entity("auth-service")
                    .kind(Kind.ENTITY_CLAIM).build());
            assertThat(then).extracting(SearchHit::object).containsExactly("30s");
            assertThat(now).extracting(SearchHit::object).containsExactly("15s");
        }
    }
}
