package dev.palimpsest.validtime;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.cli.Run;
import dev.palimpsest.model.Brief;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recall in valid time: search and brief at a valid time keep only the facts valid then (open
 * bounds hold; a claim closed by a successor is not valid from the successor's start), composed with
 * {@code at} and {@code as-of}; a brief states a validity that is not open at both ends.
 */
class ValidTimeRecallTest {
    private static final Instant Y2019 = Instant.parse("2019-06-01T00:00:00Z");
    private static final Instant Y2021 = Instant.parse("2021-03-01T00:00:00Z");
    private static final Instant Y2022 = Instant.parse("2022-06-01T00:00:00Z");
    private static final Instant FOUNDED = Instant.parse("2010-01-01T00:00:00Z");
    private static final Instant PARIS_CLOSED = Instant.parse("2020-01-01T00:00:00Z");
    private static final Instant NOON = Instant.parse("2021-03-01T12:30:00Z");

    @TempDir
    Path dir;

    private final TestClock clock = new TestClock(Instant.parse("2026-06-01T09:00:00Z"));

    private Store init() throws Exception {
        return Store.initializer(dir.resolve("store.git")).home(new KeyHome(dir.resolve("home"))).actor(ALICE)
                .options(StoreOptions.defaults().withFsync(false).withClock(clock)).create();
    }

    private Run cmd(String... args) {
        return Run.inStore(dir.resolve("store.git").toString(), dir.resolve("home").toString(), args);
    }

    /** Commit {@code before}: the source, Ada (open), the garage (open), Paris (until 2020), the noon fact. Then Bob from 2021. */
    private CommitId history(Store s) throws Exception {
        FactId doc = FactId.of("minutes");
        clock.set(Instant.parse("2026-06-01T09:00:00Z"));
        var t = s.begin(ALICE);
        t.assertFact(FactSpec.of(Kind.SOURCE, "Board minutes on who leads Acme.").id(doc));
        t.assertFact(FactSpec.of(Kind.CLAIM, "Acme was founded in a garage.").id(FactId.of("garage")));
        t.assertFact(FactSpec.of(Kind.CLAIM, "Acme kept an office in Paris.").id(FactId.of("paris"))
                .validFrom(FOUNDED).validUntil(PARIS_CLOSED));
        t.assertFact(FactSpec.of(Kind.CLAIM, "Acme opened its Berlin office.").id(FactId.of("berlin"))
                .validFrom(NOON));
        t.commit();
        clock.set(Instant.parse("2026-06-02T09:00:00Z"));
        s.claims().claim(ALICE, ClaimSpec.of("Acme", "ceo", "Ada", doc).id(FactId.of("c-ada")));
        CommitId before = s.head();
        clock.set(Instant.parse("2026-06-03T09:00:00Z"));
        s.claims().claim(ALICE, ClaimSpec.of("Acme", "ceo", "Bob", doc).id(FactId.of("c-bob")).validFrom(Y2021));
        return before;
    }

    private static List<String> ids(List<SearchHit> hits) {
        return hits.stream().map(h -> h.id().value()).toList();
    }

    @Test
    void searchAtAValidTimeKeepsOnlyWhatWasValidThenComposedWithAt() throws Exception {
        try (Store s = init()) {
            CommitId before = history(s);
            SearchQuery acme = SearchQuery.builder("acme").entity("acme").limit(20).hops(0).build();
            assertThat(ids(s.recall().search(acme))).contains("c-ada", "c-bob", "garage", "paris", "berlin");
            assertThat(ids(s.recall().search(acme.toBuilder().validAt(Y2019).build())))
                    .as("Ada open-ended before Bob, the garage open, Paris until 2020")
                    .contains("c-ada", "garage", "paris").doesNotContain("c-bob", "berlin");
            assertThat(ids(s.recall().search(acme.toBuilder().validAt(Y2022).build())))
                    .as("Bob closed Ada at his start; Paris had closed")
                    .contains("c-bob", "garage", "berlin").doesNotContain("c-ada", "paris");
            assertThat(ids(s.recall().search(acme.toBuilder().validAt(Y2021).build())))
                    .as("the successor's start: Bob valid, Ada no longer (half-open); Berlin not yet, at noon")
                    .contains("c-bob").doesNotContain("c-ada", "berlin");
            assertThat(ids(s.recall().search(acme.toBuilder().validAt(NOON).build()))).contains("berlin");
            assertThat(ids(s.recall().search(acme.toBuilder().at(before).validAt(Y2022).build())))
                    .as("at the commit before Bob was written, Ada was still open-ended")
                    .contains("c-ada", "garage").doesNotContain("c-bob", "paris");
            assertThat(acme.validTime()).isEmpty();
            assertThat(acme.toBuilder().validAt(Y2019).build().validTime()).contains(Y2019);
            assertThat(acme.toBuilder().validAt(Y2019).build().with(5, 1).validTime()).contains(Y2019);
            assertThatThrownBy(() -> SearchQuery.builder().validAt(null)).isInstanceOf(NullPointerException.class)
                    .hasMessageStartingWith("instant");
        }
    }

    @Test
    void aBriefStatesAValidityThatIsNotOpenAndAtAValidTimeListsOnlyWhatWasValidThen() throws Exception {
        CommitId before;
        try (Store s = init()) {
            before = history(s);
            Brief all = s.recall().brief(BriefRequest.builder().entity("acme").query("acme").build());
            String text = all.text();
            assertThat(text).contains("c-ada: Acme ceo Ada (valid until 2021-03-01)")
                    .contains("c-bob: Acme ceo Bob (valid since 2021-03-01)")
                    .contains("paris: Acme kept an office in Paris. (valid 2010-01-01 → 2020-01-01)")
                    .contains("berlin: Acme opened its Berlin office. (valid since 2021-03-01T12:30:00Z)")
                    .contains("garage: Acme was founded in a garage.\n");
            assertThat(text).as("a succession is no contradiction").doesNotContain(Brief.CONTRADICTIONS);

            String then = s.recall().brief(BriefRequest.builder().entity("acme").query("acme").validAt(Y2019).build())
                    .text();
            assertThat(then).contains("c-ada: Acme ceo Ada (valid until 2021-03-01)").contains("garage:")
                    .contains("paris:").doesNotContain("c-bob").doesNotContain("berlin");
            String earlier = s.recall().brief(BriefRequest.builder().entity("acme").at(before).validAt(Y2022).build())
                    .text();
            assertThat(earlier).as("at the commit before Bob, Ada is open-ended").contains("c-ada: Acme ceo Ada\n")
                    .doesNotContain("c-bob");
            assertThat(BriefRequest.builder().entity("acme").validAt(Y2019).build().withMaxTokens(10).validTime())
                    .contains(Y2019);

            // overlapping validity with another object is still a contradiction, and only when valid then
            clock.set(Instant.parse("2026-06-04T09:00:00Z"));
            s.claims().claim(ALICE, ClaimSpec.of("Acme", "ceo", "Eve", FactId.of("minutes")).id(FactId.of("c-eve"))
                    .validFrom(Y2021).validUntil(Y2022));
            assertThat(s.recall().brief(BriefRequest.builder().entity("acme").validAt(Y2021.plusSeconds(86400))
                    .build()).text()).contains(Brief.CONTRADICTIONS).contains("'Eve' (c-eve");
            assertThat(s.recall().brief(BriefRequest.builder().entity("acme").validAt(Y2022.plusSeconds(86400))
                    .build()).text()).doesNotContain(Brief.CONTRADICTIONS).doesNotContain("c-eve");
        }

        Run search = cmd("search", "--entity", "acme", "--hops", "0", "--valid-at", "2019-06-01", "--json");
        assertThat(search.code()).as(search.err()).isZero();
        List<String> found = new ArrayList<>();
        search.json().forEach(h -> found.add(h.get("id").asText()));
        assertThat(found).contains("c-ada", "paris").doesNotContain("c-bob", "berlin", "c-eve");
        Run searchAt = cmd("search", "--entity", "acme", "--hops", "0", "--valid-at", "2022-06-01", "--at",
                before.hex(), "--json");
        assertThat(searchAt.code()).as(searchAt.err()).isZero();
        List<String> foundAt = new ArrayList<>();
        searchAt.json().forEach(h -> foundAt.add(h.get("id").asText()));
        assertThat(foundAt).contains("c-ada").doesNotContain("c-bob");
        Run asOf = cmd("search", "--entity", "acme", "--hops", "0", "--valid-at", "2022-06-01", "--as-of",
                "2026-06-02T12:00:00Z", "--json");
        assertThat(asOf.code()).as(asOf.err()).isZero();
        List<String> foundAsOf = new ArrayList<>();
        asOf.json().forEach(h -> foundAsOf.add(h.get("id").asText()));
        assertThat(foundAsOf).as("as of the day before Bob was written").isEqualTo(foundAt);

        Run brief = cmd("brief", "--entity", "acme", "--valid-at", "2022-06-01");
        assertThat(brief.code()).as(brief.err()).isZero();
        assertThat(brief.out()).contains("c-bob: Acme ceo Bob (valid since 2021-03-01)").doesNotContain("c-ada")
                .doesNotContain("paris");
        Run briefAsOf = cmd("brief", "--entity", "acme", "--valid-at", "2022-06-01", "--as-of", "2026-06-02T12:00:00Z",
                "--json");
        assertThat(briefAsOf.code()).as(briefAsOf.err()).isZero();
        JsonNode lines = briefAsOf.json().get("sections").get(0).get("lines");
        assertThat(lines.toString()).contains("c-ada: Acme ceo Ada").doesNotContain("c-bob");

        Run bad = cmd("search", "--entity", "acme", "--valid-at", "someday");
        assertThat(bad.code()).isEqualTo(5);
        assertThat(bad.err()).contains("--valid-at").contains("valid-time-malformed");
        Run badBrief = cmd("brief", "--entity", "acme", "--valid-at", "2021-13-01");
        assertThat(badBrief.code()).isEqualTo(5);
        assertThat(badBrief.err()).contains("--valid-at");
    }

    @Test
    void aValidTimeSearchFindsTheValidFactsBelowManyBetterTextHitsThatWereNotValidThen() throws Exception {
        try (Store s = init()) {
            var t = s.begin(ALICE);
            for (int i = 0; i < 300; i++) {
                t.assertFact(FactSpec.of(Kind.CLAIM, "Lighthouse " + i + ": lighthouse lit.").id(FactId.of("old-" + i))
                        .validUntil(PARIS_CLOSED));
            }
            for (int i = 0; i < 3; i++) {
                t.assertFact(FactSpec.of(Kind.CLAIM, "In the harbour, keepers repainted the tall old lighthouse white, "
                        + "part " + i + ".").id(FactId.of("now-" + i)));
            }
            t.commit();
            SearchQuery q = SearchQuery.builder("lighthouse").limit(5).hops(0).build();
            assertThat(ids(s.recall().search(q))).as("unfiltered, the short old facts rank first")
                    .allMatch(id -> id.startsWith("old-"));
            assertThat(ids(s.recall().search(q.toBuilder().validAt(Y2022).build())))
                    .containsExactlyInAnyOrder("now-0", "now-1", "now-2");
        }
    }

    @Test
    void supersedeTakesAValidity() throws Exception {
        try (Store s = init()) {
            var t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "The bridge is open.").id(FactId.of("bridge")));
            t.commit();
        }
        Run r = cmd("supersede", "bridge", "--actor", "alice", "--id", "bridge-2", "--body",
                "The bridge is closed for repairs.", "--valid-from", "2024-01-01", "--valid-until",
                "2024-03-01T06:00:00Z");
        assertThat(r.code()).as(r.err()).isZero();
        Run show = cmd("valid", "bridge-2", "--valid-at", "2024-02-01", "--json");
        assertThat(show.code()).as(show.err()).isZero();
        assertThat(show.json().get("valid").asBoolean()).isTrue();
        assertThat(show.json().get("valid_until").asText()).isEqualTo("2024-03-01T06:00:00Z");
        Run inverted = cmd("supersede", "bridge", "--actor", "alice", "--id", "bridge-3", "--body", "Open again.",
                "--valid-from", "2024-03-01", "--valid-until", "2024-01-01");
        assertThat(inverted.code()).isEqualTo(5);
        assertThat(inverted.err()).contains("valid-time-inverted");
        try (Store s = Store.open(dir.resolve("store.git"), new KeyHome(dir.resolve("home")))) {
            assertThat(s.find(FactId.of("bridge-3"))).as("nothing written").isEmpty();
        }
    }
}
