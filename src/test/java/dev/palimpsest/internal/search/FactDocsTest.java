package dev.palimpsest.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keyword terms of entity keys stay exact and within Lucene's term limit at any key length; a claim
 * whose default body only repeats its subject before the sentence of its object is found by that
 * sentence.
 */
class FactDocsTest {
    private static Fact claim(String body, String s, String p, String o) {
        return new Fact(FactId.of("c"), Kind.ENTITY_CLAIM, body, null, List.of(), null, Grounding.triple(s, p, o));
    }

    @Test
    void aDefaultBodyWhoseObjectNamesTheSubjectIsFoundAndEmbeddedAsTheObject() {
        Fact f = claim("Gina said Gina's shop opens in May", "Gina", "said", "Gina's shop opens in May");
        assertThat(FactDocs.sentenceOf(f)).isEqualTo("Gina's shop opens in May");
        assertThat(FactDocs.textOf(f)).isEqualTo("Gina's shop opens in May");
        assertThat(FactDocs.vectorKey(f, "abc")).isEqualTo("abc:sentence");
        var doc = FactDocs.of(f, 1, "c0", "alice", 0L);
        assertThat(doc.getField(FactDocs.VERB).stringValue()).isEqualTo("said");
        assertThat(doc.getField(FactDocs.TEXT).stringValue()).isEqualTo("Gina's shop opens in May");
    }

    @Test
    void anyOtherClaimKeepsItsBodyAndTriple() {
        // the object does not name the subject: the subject is kept
        Fact notNamed = claim("auth service depends on redis", "auth service", "depends on", "redis");
        assertThat(FactDocs.sentenceOf(notNamed)).isNull();
        assertThat(FactDocs.textOf(notNamed)).isEqualTo("auth service depends on redis");
        assertThat(FactDocs.vectorKey(notNamed, "abc")).isEqualTo("abc");
        assertThat(FactDocs.of(notNamed, 1, "c0", "alice", 0L).getField(FactDocs.VERB)).isNull();
        // a word that only starts with the subject does not name it
        assertThat(FactDocs.sentenceOf(claim("sun states sunlight warms", "sun", "states", "sunlight warms")))
                .isNull();
        // a body of the author's own: it and the triple, as before
        Fact own = claim("Gina is opening a studio", "Gina", "plans", "Gina opens a studio");
        assertThat(FactDocs.sentenceOf(own)).isNull();
        assertThat(FactDocs.textOf(own)).isEqualTo("Gina is opening a studio\nGina plans Gina opens a studio");
        // a fact without a triple: its body
        Fact plain = new Fact(FactId.of("p"), Kind.CLAIM, "the sun is a star", null, List.of());
        assertThat(FactDocs.sentenceOf(plain)).isNull();
        assertThat(FactDocs.textOf(plain)).isEqualTo("the sun is a star");
    }

    @Test
    void aKeyUpToTheLimitIsItsOwnTermAndALongerOneItsDigest() {
        String edge = "k".repeat(FactDocs.MAX_KEY_BYTES);
        assertThat(FactDocs.keyTerm("auth service")).isEqualTo("auth service");
        assertThat(FactDocs.keyTerm(edge)).isEqualTo(edge);
        String over = edge + "k";
        assertThat(FactDocs.keyTerm(over)).matches("#[0-9a-f]{64}").isEqualTo(FactDocs.keyTerm(over))
                .isNotEqualTo(FactDocs.keyTerm(edge + "j"));
        String wide = "日".repeat(FactDocs.MAX_KEY_BYTES / 3 + 1); // 342 characters, 1,026 bytes
        assertThat(wide.length()).isLessThan(FactDocs.MAX_KEY_BYTES);
        assertThat(FactDocs.keyTerm(wide)).matches("#[0-9a-f]{64}");
        String huge = "x".repeat(40_000);
        assertThat(FactDocs.keyTerm(huge).getBytes(StandardCharsets.UTF_8)).hasSizeLessThan(32_766);
    }
}
