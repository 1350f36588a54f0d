package dev.palimpsest.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.ClaimResult;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.DeadEnds;
import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The seed's memory stories, end to end through the Java API, each store audited clean afterwards. */
class ClaimStoriesTest {
    @TempDir
    Path dir;

    static FactId source(Store s, String id) throws Exception {
        var tx = s.begin(TestStores.ALICE);
        FactId f = tx.assertFact(FactSpec.of(Kind.SOURCE, "source text of " + id).id(FactId.of(id)));
        tx.commit();
        return f;
    }

    static void auditClean(Store s) throws Exception {
        try (Auditor a = Auditor.open(s.gitDir())) {
            AuditReport r = a.audit(dev.palimpsest.model.AuditProgress.none());
            assertThat(r.violations()).isEmpty();
        }
    }

    @Test
    void normalisationTable() {
        assertThat(EntityKey.of("GraphARC")).isEqualTo("grapharc");
        assertThat(EntityKey.of("  grapharc  ")).isEqualTo("grapharc");
        assertThat(EntityKey.of("GRAPHARC!")).isEqualTo("grapharc");
        assertThat(EntityKey.of("Graph-ARC")).isEqualTo("graph arc");
        assertThat(EntityKey.of("東京")).isEqualTo("東京").isNotEqualTo(EntityKey.of("北京"));
        assertThat(EntityKey.of("Straße")).isEqualTo("strasse");
        assertThat(EntityKey.of("ＧｒａｐｈＡＲＣ")).isEqualTo("grapharc"); // full-width: NFKC
        assertThat(EntityKey.of("auth-service")).isEqualTo("auth service");
        assertThat(EntityKey.of("!!!")).isEmpty();
    }

    @Test
    void lookupsNormaliseTheEntity() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId readme = source(s, "readme");
            s.claims().claim(TestStores.ALICE, ClaimSpec.of("GraphARC", "depends on", "LangGraph", readme)
                    .run("run-12").confidence(0.9));
            CommitId head = s.head();
            for (String lookup : List.of("GraphARC", "  grapharc  ", "GRAPHARC!")) {
                assertThat(s.claims().at(head).current(lookup)).extracting(ClaimView::object)
                        .containsExactly("LangGraph");
            }
            assertThat(s.claims().at(head).current("Graph-ARC")).isEmpty();
            ClaimView c = s.claims().at(head).current("grapharc", "Depends On").get(0);
            assertThat(c.run()).isEqualTo("run-12");
            assertThat(c.source()).isEqualTo(readme);
            assertThat(c.actor()).isEqualTo(TestStores.ALICE);
            assertThat(c.commit()).isEqualTo(head);
            auditClean(s);
        }
    }

    @Test
    void threeStepSupersedeChainWithDeadEnds() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId cfg = source(s, "config-prod");
            FactId incident = source(s, "incident-4412");
            var claims = s.claims();
            claims.claim(TestStores.ALICE, ClaimSpec.of("auth-service", "times out after", "30s", cfg)
                    .id(FactId.of("v1")).run("run-12"));
            CommitId afterV1 = s.head();
            claims.supersede(TestStores.ALICE, FactId.of("v1"), ClaimSpec.of("auth-service", "times out after", "10s",
                    cfg).id(FactId.of("v2")).run("run-37"));
            CommitId afterV2 = s.head();
            claims.supersede(TestStores.ALICE, FactId.of("v2"), ClaimSpec.of("auth-service", "times out after", "15s",
                    incident).id(FactId.of("v3")).run("run-51"));
            CommitId head = s.head();

            assertThat(claims.at(head).current("auth-service")).extracting(c -> c.id().value(), ClaimView::object)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("v3", "15s"));
            DeadEnds dead = claims.at(head).deadEnds("auth-service", 10);
            assertThat(dead.kept()).extracting(c -> c.id().value()).containsExactly("v2", "v1");
            assertThat(dead.kept()).extracting(c -> c.supersededBy().value()).containsExactly("v3", "v2");
            assertThat(dead.omitted()).isZero();
            DeadEnds capped = claims.at(head).deadEnds("auth-service", 1);
            assertThat(capped.kept()).extracting(c -> c.id().value()).containsExactly("v2");
            assertThat(capped.omitted()).isEqualTo(1);

            List<ClaimView> chain = claims.at(head).chain("Auth Service", "times out after");
            assertThat(chain).extracting(c -> c.id().value()).containsExactly("v1", "v2", "v3");
            assertThat(chain).extracting(ClaimView::run).containsExactly("run-12", "run-37", "run-51");
            assertThat(chain).extracting(c -> c.source().value()).containsExactly("config-prod", "config-prod",
                    "incident-4412");
            assertThat(chain.get(2).supersededBy()).isNull();
            assertThat(chain.get(0).correctedAt()).isEqualTo(afterV2);

            // history stays answerable
            assertThat(claims.at(afterV1).current("auth-service")).extracting(ClaimView::object).containsExactly("30s");
            assertThat(claims.at(afterV1).deadEnds("auth-service", 10).kept()).isEmpty();

            // a second supersession of v1 is refused, naming its successor; so is a self-supersession
            assertThatThrownBy(() -> claims.supersede(TestStores.ALICE, FactId.of("v1"),
                    ClaimSpec.of("auth-service", "times out after", "5s", cfg).id(FactId.of("v4"))))
                    .isInstanceOf(RejectedException.class)
                    .satisfies(e -> assertThat(((RejectedException) e).violations())
                            .anySatisfy(v -> {
                                assertThat(v.rule()).isEqualTo(Rule.ALREADY_SUPERSEDED);
                                assertThat(v.message()).contains("v2");
                            }));
            assertThatThrownBy(() -> claims.supersede(TestStores.ALICE, FactId.of("v3"),
                    ClaimSpec.of("auth-service", "times out after", "5s", cfg).id(FactId.of("v3"))))
                    .isInstanceOf(RejectedException.class)
                    .satisfies(e -> assertThat(((RejectedException) e).violations())
                            .anySatisfy(v -> assertThat(v.rule()).isEqualTo(Rule.SELF_SUPERSESSION)));
            // the plain transaction API refuses the same
            var tx = s.begin(TestStores.ALICE);
            tx.supersede(FactId.of("v2"), FactSpec.of(Kind.CLAIM, "another fix"));
            assertThatThrownBy(tx::commit).isInstanceOf(RejectedException.class);
            // and so does a revision that adds a supersedes ref to a superseded fact
            var rev = s.begin(TestStores.ALICE);
            rev.revise(FactId.of("v3"), "v3, also replacing v1",
                    List.of(dev.palimpsest.model.RefSpec.of(FactId.of("v1"), dev.palimpsest.model.RefRole.SUPERSEDES)));
            assertThatThrownBy(rev::commit).isInstanceOf(RejectedException.class)
                    .satisfies(e -> assertThat(((RejectedException) e).violations()).extracting(v -> v.rule())
                            .containsExactly(Rule.ALREADY_SUPERSEDED));
            assertThat(s.head()).isEqualTo(head);
            auditClean(s);
        }
    }

    @Test
    void contradictionDetectedStoredAnywayResolvedBySupersede() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId cfg = source(s, "config-prod");
            FactId incident = source(s, "incident-4412");
            var claims = s.claims();
            ClaimResult t1 = claims.claim(TestStores.ALICE, ClaimSpec.of("auth-service", "times out after", "30s", cfg)
                    .id(FactId.of("t1")));
            assertThat(t1.conflicts()).isEmpty();
            ClaimResult t2 = claims.claim(TestStores.ALICE, ClaimSpec.of("Auth-Service", "times out after", "10s",
                    incident).id(FactId.of("t2")));
            assertThat(t2.conflicts()).containsExactly(new ClaimResult.Conflict(FactId.of("t1"), "30s", cfg));
            // the same object (normalised) is agreement, not a contradiction
            ClaimResult t3 = claims.claim(TestStores.ALICE, ClaimSpec.of("auth-service", "times out after", "10S",
                    cfg).id(FactId.of("t3")));
            assertThat(t3.conflicts()).extracting(c -> c.id().value()).containsExactly("t1");
            List<Contradiction> flagged = claims.contradictions();
            assertThat(flagged).hasSize(1);
            assertThat(flagged.get(0).subject()).isEqualTo("auth service");
            assertThat(flagged.get(0).claims()).extracting(c -> c.id().value()).containsExactly("t1", "t2", "t3");

            // resolution is deliberate: t2's side supersedes t1
            claims.supersede(TestStores.ALICE, FactId.of("t1"), ClaimSpec.of("auth-service", "times out after", "10s",
                    incident).id(FactId.of("t4")));
            assertThat(claims.contradictions("auth-service")).isEmpty();
            assertThat(claims.deadEnds("auth-service", 5).kept()).extracting(c -> c.id().value())
                    .containsExactly("t1");
            auditClean(s);
        }
    }

    @Test
    void multiValuedPredicateIsNoContradiction() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.receipts().ingest(TestStores.ALICE, ("multi_valued: [\"Depends On\"]\n"
                    + "sources:\n  - {id: arch-doc, body: \"billing uses postgres and redis\"}\n").getBytes(), false);
            FactId doc = FactId.of("arch-doc");
            var claims = s.claims();
            claims.claim(TestStores.ALICE, ClaimSpec.of("billing", "depends on", "postgres", doc));
            ClaimResult second = claims.claim(TestStores.ALICE, ClaimSpec.of("billing", "depends on", "redis", doc));
            assertThat(second.conflicts()).isEmpty();
            assertThat(claims.contradictions()).isEmpty();
            claims.claim(TestStores.ALICE, ClaimSpec.of("billing", "listens on", "8080", doc));
            ClaimResult port = claims.claim(TestStores.ALICE, ClaimSpec.of("billing", "listens on", "9090", doc));
            assertThat(port.conflicts()).hasSize(1);
            assertThat(claims.contradictions("BILLING")).extracting(Contradiction::predicate)
                    .containsExactly("listens on");
            // declared later through the Java API: contradictions at main go, history keeps them
            CommitId before = s.head();
            claims.declareMultiValued(TestStores.ALICE, List.of("Listens On!"));
            assertThat(claims.contradictions("billing")).isEmpty();
            assertThat(claims.at(before).contradictions("billing")).hasSize(1);
            assertThatThrownBy(() -> claims.declareMultiValued(TestStores.ALICE, List.of("listens on")))
                    .isInstanceOf(RejectedException.class);
            assertThatThrownBy(() -> claims.declareMultiValued(TestStores.ALICE, List.of("?!")))
                    .isInstanceOf(RejectedException.class);
            auditClean(s);
        }
    }

    @Test
    void badClaimsAreRejectedAndNothingIsWritten() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = source(s, "doc");
            var before = TestStores.durableState(s.gitDir());
            var claims = s.claims();
            // no source ref at all
            assertThatThrownBy(() -> claims.claim(TestStores.ALICE, ClaimSpec.of("x", "is", "y", doc)
                    .sources(List.of())))
                    .isInstanceOf(RejectedException.class)
                    .satisfies(e -> assertThat(((RejectedException) e).violations()).extracting(v -> v.rule())
                            .contains(Rule.CLAIM_SOURCE));
            // a subject without a word character
            assertThatThrownBy(() -> claims.claim(TestStores.ALICE, ClaimSpec.of("!!!", "is", "y", doc)))
                    .isInstanceOf(RejectedException.class)
                    .satisfies(e -> assertThat(((RejectedException) e).violations()).extracting(v -> v.rule())
                            .contains(Rule.CLAIM_TRIPLE));
            // an entity-claim fact without a triple
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.ENTITY_CLAIM, "no triple"));
            assertThatThrownBy(tx::commit).isInstanceOf(RejectedException.class)
                    .satisfies(e -> assertThat(((RejectedException) e).violations()).extracting(v -> v.rule())
                            .contains(Rule.CLAIM_TRIPLE, Rule.CLAIM_SOURCE));
            // an unknown source, a bad run
            assertThatThrownBy(() -> claims.claim(TestStores.ALICE, ClaimSpec.of("x", "is", "y", FactId.of("nope"))))
                    .isInstanceOf(RejectedException.class);
            assertThatThrownBy(() -> claims.claim(TestStores.ALICE, ClaimSpec.of("x", "is", "y", doc).run("bad run!")))
                    .isInstanceOf(RejectedException.class)
                    .satisfies(e -> assertThat(((RejectedException) e).violations()).extracting(v -> v.rule())
                            .contains(Rule.INVALID_FACT));
            assertThat(TestStores.durableState(s.gitDir())).isEqualTo(before);
            assertThat(claims.current("x")).isEmpty();
        }
    }
}
