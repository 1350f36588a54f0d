package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.Brief;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchHit.Channel;
import dev.palimpsest.model.SearchQuery;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The seed's recall examples (search channels, score bands, hops, briefs) end to end through the Java API. */
class RecallStoriesTest {
    @TempDir
    Path dir;

    static FactId source(Store s, String id) throws Exception {
        var tx = s.begin(TestStores.ALICE);
        FactId f = tx.assertFact(FactSpec.of(Kind.SOURCE, "document " + id).id(FactId.of(id)));
        tx.commit();
        return f;
    }

    static void claim(Store s, String id, String subject, String predicate, String object, FactId src)
            throws Exception {
        s.claims().claim(TestStores.ALICE, ClaimSpec.of(subject, predicate, object, src).id(FactId.of(id)).run("run-12"));
    }

    /** The seed's graph: auth-service, its owner and dependency, and their neighbours. */
    static void seedGraph(Store s) throws Exception {
        FactId doc = source(s, "arch-md");
        claim(s, "a1", "auth-service", "depends on", "redis", doc);
        claim(s, "a2", "auth-service", "owned by", "platform team", doc);
        claim(s, "p1", "platform team", "on call rotation", "PagerDuty schedule P7", doc);
        claim(s, "b1", "billing-service", "depends on", "auth-service", doc);
        claim(s, "r1", "redis", "runs version", "7.2.4", doc);
        claim(s, "r2", "redis", "has known issue", "connection leak under TLS", doc);
    }

    /** The claims whose subject is {@code entity} (named, and filtered on the subject), 10 hits, no hop. */
    static SearchQuery about(String entity) {
        return SearchQuery.builder().entity(entity).subject(entity).hops(0).build();
    }

    static List<String> ids(List<SearchHit> hits) {
        return hits.stream().map(h -> h.id().value()).toList();
    }

    @Test
    void namingAnEntityScoresItsSubjectsClaimsOneItsObjectsClaimsLowerInTheBandAndNeighboursPointFourFive()
            throws Exception {
        try (Store s = TestStores.init(dir)) {
            seedGraph(s);
            List<SearchHit> hits = s.recall().search(SearchQuery.builder().entity("auth-service").build());
            assertThat(ids(hits)).containsExactly("a1", "a2", "b1", "p1", "r1", "r2");
            assertThat(hits.subList(0, 2)).allSatisfy(h -> {
                assertThat(h.score()).isEqualTo(1.0);
                assertThat(h.channel()).isEqualTo(Channel.ENTITY);
                assertThat(h.hops()).isZero();
                assertThat(h.via()).isNull();
            });
            // b1 names auth-service as its object: in the entity band, below the subject's claims
            assertThat(hits.get(2).channel()).isEqualTo(Channel.ENTITY);
            assertThat(hits.get(2).score()).isCloseTo(0.91 + 0.09 * (0.75 + 0.25 * 0.5), within(1e-12));
            assertThat(hits.subList(3, 6)).allSatisfy(h -> {
                assertThat(h.score()).isCloseTo(0.45, within(1e-12));
                assertThat(h.channel()).isEqualTo(Channel.GRAPH);
                assertThat(h.hops()).isEqualTo(1);
            });
            assertThat(hits).extracting(h -> h.via() == null ? null : h.via().value())
                    .containsExactly(null, null, null, "a2", "a1", "a1");
            SearchHit b1 = hits.get(2);
            assertThat(b1.subject()).isEqualTo("billing-service");
            assertThat(b1.object()).isEqualTo("auth-service");
            assertThat(b1.source()).isEqualTo(FactId.of("arch-md"));
            assertThat(b1.run()).isEqualTo("run-12");
            assertThat(b1.actor()).isEqualTo(TestStores.ALICE);
            // no hop: the claims that name the entity, the subject's first
            assertThat(ids(s.recall().search(SearchQuery.builder().entity("Auth Service").hops(0).build())))
                    .containsExactly("a1", "a2", "b1");
        }
    }

    @Test
    void connectionLeakFindsTheRedisIssueThenItsDependent() throws Exception {
        try (Store s = TestStores.init(dir)) {
            seedGraph(s);
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("connection leak").build());
            assertThat(ids(hits)).containsExactly("r2", "a1");
            assertThat(hits.get(0).score()).isEqualTo(0.9);
            assertThat(hits.get(0).channel()).isEqualTo(Channel.LEXICAL);
            assertThat(hits.get(1).score()).isCloseTo(0.405, within(1e-12));
            assertThat(hits.get(1).via()).isEqualTo(FactId.of("r2"));
            assertThat(hits.get(1).hops()).isEqualTo(1);
            // two hops: a1's other neighbours at 0.45^2 * 0.9 (a2 shares a1's subject: no edge)
            List<SearchHit> two = s.recall().search(SearchQuery.builder("connection leak").build().with(10, 2));
            assertThat(ids(two)).containsExactly("r2", "a1", "b1", "r1");
            assertThat(two.get(2).score()).isCloseTo(0.9 * 0.45 * 0.45, within(1e-12));
            assertThat(two.get(3).hops()).isEqualTo(2);
            assertThat(two.get(3).via()).isEqualTo(FactId.of("a1"));
        }
    }

    @Test
    void whoDependsOnAuthServiceFindsBillingService() throws Exception {
        try (Store s = TestStores.initLexical(dir)) {
            seedGraph(s);
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("who depends on auth-service").build());
            assertThat(ids(hits).subList(0, 2)).containsExactlyInAnyOrder("a1", "b1");
            assertThat(hits.get(0).score()).isEqualTo(0.9);
            assertThat(hits).allSatisfy(h -> assertThat(h.score()).isLessThanOrEqualTo(0.9));
        }
    }

    @Test
    void namedEntitiesAlwaysOutrankTextMatches() throws Exception {
        try (Store s = TestStores.init(dir)) {
            seedGraph(s);
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("connection leak").entity("platform team").build());
            // p1 has the subject, a2 the object "platform team"; neither matches the text: the band's lower part
            assertThat(ids(hits).subList(0, 3)).containsExactly("p1", "a2", "r2");
            assertThat(hits.get(0).score()).isCloseTo(0.91 + 0.09 * 0.25, within(1e-12));
            assertThat(hits.get(1).score()).isCloseTo(0.91 + 0.09 * 0.25 * 0.5, within(1e-12));
            assertThat(hits.get(2).score()).isEqualTo(0.9);
        }
    }

    @Test
    void theSpellingChannelFindsAuthserviceButNotRedsi() throws Exception {
        try (Store s = TestStores.initLexical(dir)) {
            seedGraph(s);
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("authservice").build().with(10, 0));
            assertThat(ids(hits)).containsExactly("a1", "a2", "b1");
            assertThat(hits).allSatisfy(h -> {
                assertThat(h.channel()).isEqualTo(Channel.SPELLING);
                assertThat(h.score()).isEqualTo(0.9);
            });
            // one letter off still clears the minimum similarity, scaled by it
            List<SearchHit> near = s.recall().search(SearchQuery.builder("platfrom team").build().with(10, 0));
            assertThat(ids(near)).contains("a2", "p1");
            // a spelling hit scores 0.9 times its best similarity (here 0.6: 6 of 10 + 10 trigrams shared)
            List<SearchHit> spelled = s.recall().search(SearchQuery.builder("platfromteam").build().with(10, 0));
            assertThat(ids(spelled)).contains("p1");
            assertThat(spelled).allSatisfy(h -> {
                assertThat(h.channel()).isEqualTo(Channel.SPELLING);
                assertThat(h.score()).isEqualTo(0.9 * bestDice(List.of("platfromteam"), h)).isGreaterThanOrEqualTo(0.45);
            });
            assertThat(spelled.stream().filter(h -> h.id().value().equals("p1")).findFirst().orElseThrow().score())
                    .isEqualTo(0.9 * 0.6);
            assertThat(s.recall().search(SearchQuery.builder("redsi").build())).isEmpty();
        }
    }

    @Test
    void aCorrectlySpeltKeyIsNotFuzzedItsClaimsRankByRelevanceWithTheSubjectBoosted() throws Exception {
        try (Store s = TestStores.initLexical(dir)) {
            seedGraph(s);
            // redis is a word of the index: no spelling hit at a flat 0.9; naming the subject key is a boost
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("redis").hops(0).build());
            assertThat(ids(hits)).containsExactly("r1", "r2", "a1");
            assertThat(hits).allSatisfy(h -> assertThat(h.channel()).isEqualTo(Channel.LEXICAL));
            assertThat(hits.get(0).score()).isEqualTo(0.9);
            assertThat(hits.get(2).score()).isLessThan(hits.get(1).score());
        }
    }

    /** The best Dice coefficient of trigram sets between a query word and the hit's compact subject or object key. */
    private static double bestDice(List<String> words, SearchHit h) {
        double best = 0;
        for (String w : words) {
            for (String e : new String[] {h.subject(), h.object()}) {
                if (e == null) {
                    continue;
                }
                java.util.Set<String> a = trigrams(w);
                java.util.Set<String> b = trigrams(dev.palimpsest.model.EntityKey.of(e).replace(" ", ""));
                long shared = a.stream().filter(b::contains).count();
                best = Math.max(best, 2.0 * shared / (a.size() + b.size()));
            }
        }
        return best;
    }

    private static java.util.Set<String> trigrams(String s) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (int i = 0; i + 3 <= s.length(); i++) {
            out.add(s.substring(i, i + 3));
        }
        return out;
    }

    @Test
    void noQueryAndNoEntityReturnsNothing() throws Exception {
        try (Store s = TestStores.init(dir)) {
            seedGraph(s);
            assertThat(s.recall().search(SearchQuery.builder().build())).isEmpty();
            assertThat(s.recall().search(SearchQuery.builder("   ").build())).isEmpty();
            assertThat(s.recall().search(SearchQuery.builder("the of and").build())).isEmpty();
            Brief b = s.recall().brief(BriefRequest.builder().build());
            assertThat(b.sections()).isEmpty();
            assertThat(b.text()).isEmpty();
        }
    }

    @Test
    void filtersNarrowEveryChannelAndHop() throws Exception {
        try (Store s = TestStores.init(dir)) {
            seedGraph(s);
            SearchQuery q = SearchQuery.builder().entity("auth-service").predicate("depends on").build();
            assertThat(ids(s.recall().search(q))).containsExactly("a1", "b1");
            SearchQuery bySubject = SearchQuery.builder().entity("auth-service").subject("redis").build();
            assertThat(ids(s.recall().search(bySubject))).isEmpty(); // no hop-0 hit, so no hop
            SearchQuery byKind = SearchQuery.builder("document").hops(0).kind(Kind.SOURCE).build();
            assertThat(ids(s.recall().search(byKind))).containsExactly("arch-md");
            SearchQuery byRun = SearchQuery.builder("redis").hops(0).run("run-99").build();
            assertThat(s.recall().search(byRun)).isEmpty();
            SearchQuery byActor = SearchQuery.builder().entity("redis").hops(0)
                    .actor(dev.palimpsest.model.ActorName.of("bob")).build();
            assertThat(s.recall().search(byActor)).isEmpty();
        }
    }

    @Test
    void searchAnswersAtAPastCommitInTheVersionLiveThere() throws Exception {
        try (Store s = TestStores.init(dir)) {
            seedGraph(s);
            CommitId before = s.head();
            var tx = s.begin(TestStores.ALICE);
            tx.revise(FactId.of("r1"), "redis runs version 7.2.4, patched in place", List.of());
            tx.commit();
            var tx2 = s.begin(TestStores.ALICE);
            tx2.retract(FactId.of("r2"), "not reproducible");
            tx2.commit();
            List<SearchHit> now = s.recall().search(about("redis"));
            assertThat(ids(now)).containsExactly("r1");
            assertThat(now.get(0).body()).isEqualTo("redis runs version 7.2.4, patched in place");
            List<SearchHit> then = s.recall().search(about("redis").toBuilder().at(before).build());
            assertThat(ids(then)).containsExactly("r1", "r2");
            assertThat(then.get(0).body()).isEqualTo("redis runs version 7.2.4");
            assertThat(ids(s.recall().search(SearchQuery.builder("patched").build().with(10, 0)))).containsExactly("r1");
            assertThat(s.recall().search(SearchQuery.builder("patched").at(before).build())).isEmpty();
            assertThat(s.recall().search(SearchQuery.builder("connection leak").build())).isEmpty();
            assertThatThrownBy(() -> s.recall().search(SearchQuery.builder("x")
                    .at(CommitId.of("0123456789012345678901234567890123456789")).build()))
                    .isInstanceOf(NotFoundException.class);
        }
    }
}
