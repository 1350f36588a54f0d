package dev.palimpsest.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdsTest {
    @ParameterizedTest
    @ValueSource(strings = {"a", "0", "pmid-39973430", "erk.regulates_apoptosis", "x-1.2_3"})
    void acceptsWellFormedFactIds(String id) {
        assertThat(FactId.of(id).value()).isEqualTo(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "../x", "A/B", "a/b", "Abc", "-a", ".a", "_a", "a b", "a..b", "é",
        "a\nb", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
    void rejectsMalformedFactIdsNamingTheValue(String id) {
        assertThatThrownBy(() -> FactId.of(id)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fact id");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Alice", "a/b", "../x"})
    void rejectsMalformedActorNames(String name) {
        assertThatThrownBy(() -> ActorName.of(name)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("actor name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "0123456789abcdef0123456789abcdef0123456g", "0123456789abcdef0123456789abcdef012345678"})
    void rejectsCommitIdsThatAreNotFortyHexDigits(String hex) {
        assertThatThrownBy(() -> CommitId.of(hex)).isInstanceOf(IllegalArgumentException.class);
    }

    @org.junit.jupiter.api.Test
    void commitIdsAreStoredInLowerCase() {
        assertThat(CommitId.of("ABCDEF0123456789ABCDEF0123456789ABCDEF01").hex())
                .isEqualTo("abcdef0123456789abcdef0123456789abcdef01");
    }

    @org.junit.jupiter.api.Test
    void refPinNeedsCommitAndBlobTogether() {
        assertThatThrownBy(() -> new Ref(FactId.of("a"), "cites",
                CommitId.of("abcdef0123456789abcdef0123456789abcdef01"), null, null))
                .hasMessageContaining("commit and blob must be given together");
    }

    @org.junit.jupiter.api.Test
    void factRejectsEmptyBodyAndOutOfRangeConfidence() {
        assertThatThrownBy(() -> new Fact(FactId.of("a"), Kind.CLAIM, " ", null, null))
                .hasMessageContaining("body must not be empty");
        assertThatThrownBy(() -> new Fact(FactId.of("a"), Kind.CLAIM, "b", 1.5, null))
                .hasMessageContaining("not in [0, 1]");
    }
}
