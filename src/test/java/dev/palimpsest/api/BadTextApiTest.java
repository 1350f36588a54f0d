package dev.palimpsest.api;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the Java API, which takes any Java string: text holding a lone UTF-16 surrogate is
 * refused as {@link Rule#INVALID_TEXT} wherever it would be stored, and a claim whose triple cannot
 * be one is a rejection, never an {@link IllegalArgumentException}; nothing is written.
 */
class BadTextApiTest {
    private static final FactId SRC = FactId.of("src");

    @TempDir
    Path dir;

    private Store store;

    @BeforeEach
    void open() throws Exception {
        store = TestStores.init(dir);
        Transaction t = store.begin(ALICE);
        t.assertFact(FactSpec.of(Kind.SOURCE, "what the source says").id(SRC));
        t.commit();
    }

    @org.junit.jupiter.api.AfterEach
    void close() {
        store.close();
    }

    private RejectedException rejected(Write w) {
        Set<String> before = TestStores.durableState(store.gitDir());
        RejectedException e = catchThrowableOfType(w::run, RejectedException.class);
        assertThat(e).isNotNull();
        assertThat(TestStores.durableState(store.gitDir())).isEqualTo(before);
        return e;
    }

    interface Write {
        void run() throws Exception;
    }

    private void asserting(FactSpec spec) throws Exception {
        Transaction t = store.begin(ALICE);
        t.assertFact(spec);
        t.commit();
    }

    private static String only(RejectedException e) {
        assertThat(e.violations()).hasSize(1);
        return e.violations().get(0).rule().id() + " " + e.violations().get(0).subject();
    }

    @Test
    void aLoneSurrogateInABodyQuoteOrTripleIsInvalidText() {
        assertThat(only(rejected(() -> asserting(FactSpec.of(Kind.CLAIM, "bad \ud800 body").id(FactId.of("b"))))))
                .isEqualTo("invalid-text fact b");
        RejectedException quote = rejected(() -> asserting(FactSpec.of(Kind.CLAIM, "quoted").id(FactId.of("q"))
                .refs(new RefSpec(SRC, null, dev.palimpsest.model.RefRole.CITES, "what the source \udc00"))));
        assertThat(only(quote)).isEqualTo("invalid-text ref q -> src");
        RejectedException claim = rejected(() -> store.claims().claim(ALICE,
                ClaimSpec.of("gi\ud800na", "likes", "tea", SRC).id(FactId.of("c"))));
        assertThat(only(claim)).isEqualTo("invalid-text fact c");
        assertThat(claim.getMessage()).contains("subject holds a lone UTF-16 surrogate U+D800 at index 2");
    }

    @Test
    void aLoneSurrogateInAReasonIsInvalidText() throws Exception {
        Transaction t = store.begin(ALICE);
        t.assertFact(FactSpec.of(Kind.CLAIM, "to retract").id(FactId.of("r")));
        t.commit();
        assertThat(only(rejected(() -> store.begin(ALICE).retract(FactId.of("r"), "because \udbff").commit())))
                .isEqualTo("invalid-text fact r");
        assertThat(rejected(() -> store.erasure().forget(ALICE, List.of(FactId.of("r")), "gone \ud800", true))
                .violations()).extracting(v -> v.rule().id() + " " + v.subject()).contains("invalid-text forget");
        assertThat(rejected(() -> store.erasure().forget(ALICE, List.of(FactId.of("r")), "gone \ud800", false))
                .violations()).extracting(v -> v.rule().id() + " " + v.subject()).containsExactly("invalid-text fact r");
    }

    @Test
    void aClaimWhosePredicateIsTooLongOrWhosePartIsBlankIsRejected() {
        RejectedException e = rejected(() -> store.claims().claim(ALICE,
                ClaimSpec.of("gina", "p".repeat(201), "tea", SRC).id(FactId.of("c"))));
        assertThat(only(e)).isEqualTo("too-large fact c");
        assertThat(e.getMessage()).contains("201 characters, over the limit of 200");
        assertThat(only(rejected(() -> store.claims().claim(ALICE, ClaimSpec.of("gina", "p".repeat(201), "tea", SRC)))))
                .isEqualTo("too-large claim");
        assertThat(only(rejected(() -> store.claims().supersede(ALICE, SRC, ClaimSpec.of(" ", "likes", "tea", SRC)))))
                .isEqualTo("claim-triple claim");
    }
}
