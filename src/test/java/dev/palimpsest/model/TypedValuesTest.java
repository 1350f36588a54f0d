package dev.palimpsest.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The typed values keep the strings stored on disk and printed by the CLI. */
class TypedValuesTest {
    @Test
    void enumsPrintTheirStoredStrings() {
        assertThat(Arrays.stream(KeyRole.values()).map(KeyRole::value)).containsExactly("agent", "human");
        assertThat(Arrays.stream(Policy.values()).map(Policy::value)).containsExactly("trust", "distrust");
        assertThat(Arrays.stream(Layer.values()).map(Layer::value)).containsExactly("assertion", "merge", "edge", "summary");
        assertThat(Arrays.stream(Withdrawal.values()).map(Withdrawal::value))
                .containsExactly("retract-source", "revoke-relation", "retract");
        assertThat(Arrays.stream(HistoryEntry.Change.values()).map(HistoryEntry.Change::value))
                .containsExactly("added", "revised", "retracted", "forgotten");
        assertThat(Arrays.stream(ReviewItem.Reason.values()).map(ReviewItem.Reason::value))
                .containsExactly("touched", "pending", "stale-refs", "concurrent-revision");
        assertThat(Layer.SUMMARY.kind()).isEqualTo(Kind.SUMMARY);
    }

    @Test
    void parsingAcceptsOnlyKnownNames() {
        assertThat(KeyRole.parse("Human")).isEqualTo(KeyRole.HUMAN);
        assertThatThrownBy(() -> KeyRole.parse("robot")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("agent or human");
        assertThat(Policy.parse("trust")).isEqualTo(Policy.TRUST);
        assertThatThrownBy(() -> Policy.parse("Trust")).isInstanceOf(IllegalArgumentException.class);
        assertThat(Layer.parse("edge")).isEqualTo(Layer.EDGE);
        assertThatThrownBy(() -> Layer.parse("source")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refRolesAreAnOpenValidatedSetAndASpecDefaultsToCites() {
        assertThat(RefRole.of("derived_from").value()).isEqualTo("derived_from");
        assertThat(RefRole.of("cites")).isEqualTo(RefRole.CITES);
        assertThatThrownBy(() -> RefRole.of("Cites")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RefRole.of(null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new RefSpec(FactId.of("a"), null, null, null).role()).isEqualTo(RefRole.CITES);
    }

    @Test
    void aHistoryEntryHasABlobExactlyWhenItIsNoRetraction() {
        CommitId c = CommitId.of("0123456789abcdef0123456789abcdef01234567");
        BlobId b = BlobId.of("89abcdef0123456789abcdef0123456789abcdef");
        ActorName a = ActorName.of("alice");
        assertThatThrownBy(() -> new HistoryEntry(FactId.of("f"), c, HistoryEntry.Change.RETRACTED, b, a, Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HistoryEntry(FactId.of("f"), c, HistoryEntry.Change.ADDED, null, a, Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSpecIsImmutableAndRejectsNull() {
        FactSpec base = FactSpec.of(Kind.CLAIM, "body");
        FactSpec withId = base.id(FactId.of("x")).confidence(0.5);
        assertThat(base.id()).isNull();
        assertThat(base.confidence()).isNull();
        assertThat(withId.id()).isEqualTo(FactId.of("x"));
        assertThat(base.grounding()).isEqualTo(Grounding.NONE);
        assertThatThrownBy(() -> FactSpec.of(null, "body")).isInstanceOf(NullPointerException.class).hasMessage("kind");
        assertThatThrownBy(() -> base.id(null)).isInstanceOf(NullPointerException.class).hasMessage("id");
    }
}
