package dev.palimpsest.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Keyword terms of entity keys stay exact and within Lucene's term limit at any key length. */
class FactDocsTest {
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
