package dev.palimpsest.claims;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.KeyRole;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The order of the claim answers, and what does not touch a claim. */
class ClaimAnswersTest {
    @TempDir
    Path dir;

    private static ClaimSpec spec(String id, String subject, String predicate, String object, FactId source) {
        return ClaimSpec.of(subject, predicate, object, source).id(FactId.of(id));
    }

    /** Writes the claims as one commit. */
    private static CommitId together(Store s, ClaimSpec... specs) throws Exception {
        var tx = s.begin(ALICE);
        for (ClaimSpec c : specs) {
            tx.assertFact(c.toFactSpec());
        }
        return tx.commit().id();
    }

    private static List<String> ids(List<ClaimView> views) {
        return views.stream().map(c -> c.id().value()).toList();
    }

    @Test
    void claimsWrittenInOneCommitAreListedById() throws Exception {
        // b's file sorts before a's (facts/3e/.. and facts/ca/..): the answers do not follow the paths
        try (Store s = TestStores.init(dir)) {
            FactId doc = ClaimStoriesTest.source(s, "doc");
            CommitId at = together(s, spec("a", "x", "is", "one", doc), spec("b", "x", "is", "two", doc));
            assertThat(ids(s.claims().at(at).chain("x", "is"))).containsExactly("a", "b");
            assertThat(s.claims().at(at).contradictions("x")).singleElement()
                    .satisfies(c -> assertThat(ids(c.claims())).containsExactly("a", "b"));
        }
    }

    @Test
    void contradictionsAreOrderedBySubjectThenPredicateThenFirstWritten() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = ClaimStoriesTest.source(s, "doc");
            var claims = s.claims();
            for (String subject : List.of("zeta", "alpha")) {
                for (String predicate : List.of("weighs", "costs")) {
                    claims.claim(ALICE, spec(subject + "-" + predicate + "-2", subject, predicate, "two", doc));
                    claims.claim(ALICE, spec(subject + "-" + predicate + "-1", subject, predicate, "one", doc));
                }
            }
            List<Contradiction> all = claims.contradictions();
            assertThat(all).extracting(c -> c.subject() + " " + c.predicate())
                    .containsExactly("alpha costs", "alpha weighs", "zeta costs", "zeta weighs");
            assertThat(all).allSatisfy(c -> assertThat(ids(c.claims()))
                    .containsExactly(c.subject() + "-" + c.predicate() + "-2", c.subject() + "-" + c.predicate() + "-1"));
        }
    }

    @Test
    void deadEndsCorrectedInOneCommitAreListedById() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = ClaimStoriesTest.source(s, "doc");
            s.claims().claim(ALICE, spec("b", "x", "is", "two", doc));
            s.claims().claim(ALICE, spec("a", "x", "is", "one", doc));
            CommitId at = s.begin(ALICE).retract(FactId.of("b"), "wrong").retract(FactId.of("a"), "wrong").commit().id();
            assertThat(ids(s.claims().at(at).deadEnds("x", 5).kept())).containsExactly("a", "b");
        }
    }

    @Test
    void aKeyFileNamedLikeAClaimLeavesTheClaimLive() throws Exception {
        ActorName bob = ActorName.of("bob");
        try (Store s = TestStores.init(dir)) {
            FactId doc = ClaimStoriesTest.source(s, "doc");
            s.claims().claim(ALICE, spec("bob", "x", "is", "one", doc));
            // keys/bob.yaml lands in the writer's changes, beside the facts
            s.begin(ALICE).addKey(bob, new KeyHome(dir.resolve("home")).generateKey(bob), KeyRole.AGENT).commit();
            assertThat(ids(s.claims().at(s.head()).current("x"))).containsExactly("bob");
        }
    }
}
