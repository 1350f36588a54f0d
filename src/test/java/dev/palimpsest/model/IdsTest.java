package dev.palimpsest.model;

import dev.palimpsest.model.RefRole;
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
    void idSyntaxTablesAgreeWithTheRegularExpressionsTheyStandFor() {
        java.util.Random rnd = new java.util.Random(11);
        String alphabet = "az09._-AZ/ é\n\u0000~";
        Object[][] cases = {{Ids.FACT_ID, "[a-z0-9][a-z0-9._-]{0,79}"}, {Ids.ACTOR, "[a-z0-9][a-z0-9._-]{0,39}"},
            {Ids.TOKEN, "[a-z][a-z0-9_-]{0,31}"}, {Ids.HEX40, "[0-9a-f]{40}"}};
        for (int i = 0; i < 20000; i++) {
            StringBuilder b = new StringBuilder();
            int n = rnd.nextInt(4) == 0 ? 38 + rnd.nextInt(5) : rnd.nextInt(90);
            for (int k = 0; k < n; k++) {
                b.append(rnd.nextInt(3) > 0 ? "abcdef0123456789xyz".charAt(rnd.nextInt(19))
                        : alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            for (Object[] c : cases) {
                assertThat(((Ids.Syntax) c[0]).matches(b.toString())).as(c[1] + " on '" + b + "'")
                        .isEqualTo(b.toString().matches((String) c[1]));
            }
        }
    }

    @org.junit.jupiter.api.Test
    void commitIdsAreStoredInLowerCase() {
        assertThat(CommitId.of("ABCDEF0123456789ABCDEF0123456789ABCDEF01").hex())
                .isEqualTo("abcdef0123456789abcdef0123456789abcdef01");
    }

    @org.junit.jupiter.api.Test
    void refPinNeedsCommitAndBlobTogether() {
        assertThatThrownBy(() -> new Ref(FactId.of("a"), RefRole.CITES,
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
