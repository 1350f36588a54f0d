package dev.palimpsest.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.audit.Change;
import dev.palimpsest.internal.index.KnownChanges;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;

/** What a pull's audit read, kept for the index's catch-up: single-parent commits and facts, up to a bound. */
class AuditedChangesTest {
    private static ObjectId id(int n) {
        return ObjectId.fromRaw(new int[] {7, n, 0, 0, 0}); // n in the second word, the one hashCode reads
    }

    @Test
    void aSingleParentCommitsChangesAreKeptByPathAndAMergesAreNot() {
        AuditedChanges kept = new AuditedChanges(null);
        ObjectId a = id(1);
        ObjectId b = id(2);
        kept.commit(id(10), List.of(id(9)), List.of(new Change("facts/x.yaml", a, b, 0100644), new Change("facts/y.yaml", null, a, 0100644)));
        kept.commit(id(11), List.of(id(10), id(8)), List.of(new Change("facts/z.yaml", null, b, 0100644)));
        assertThat(kept.changes(id(10))).isEqualTo(Map.of("facts/x.yaml", new KnownChanges.Change(a, b),
                "facts/y.yaml", new KnownChanges.Change(null, a)));
        assertThat(kept.changes(id(11))).isNull();
        assertThat(kept.changes(id(12))).isNull();
    }

    @Test
    void theRangeExtendsTheBaseOnlyWhenAnAuditedCommitHasTheBaseAsAParent() {
        AuditedChanges none = new AuditedChanges(null);
        none.commit(id(2), List.of(id(1)), List.of());
        assertThat(none.extendsBase()).isFalse();

        AuditedChanges kept = new AuditedChanges(id(1));
        kept.commit(id(3), List.of(id(2)), List.of());
        assertThat(kept.extendsBase()).isFalse();
        kept.commit(id(4), List.of(id(5), id(1)), List.of());
        assertThat(kept.extendsBase()).isTrue();
        kept.commit(id(6), List.of(id(4)), List.of());
        assertThat(kept.extendsBase()).isTrue();
    }

    @Test
    void decodedFactsAreKeptByBlobAndTheFirstDecodingStays() {
        AuditedChanges kept = new AuditedChanges(null);
        Fact one = fact("one");
        kept.fact(id(1), one);
        kept.fact(id(1), fact("two"));
        assertThat(kept.fact(id(1))).isSameAs(one);
        assertThat(kept.fact(id(2))).isNull();
    }

    @Test
    void offeredCommitBytesAreKeptUntilTheirSumPassesTheBound() {
        AuditedChanges kept = new AuditedChanges(null);
        byte[] small = {1, 2, 3};
        byte[] large = new byte[(int) (AuditedChanges.MAX_COMMIT_BYTES / 2)];
        kept.offered(id(1), small);
        kept.offered(id(2), large);
        assertThat(kept.commit(id(1))).isSameAs(small);
        assertThat(kept.commit(id(2))).isSameAs(large);
        kept.offered(id(3), large);
        assertThat(kept.commit(id(3))).as("3 + 2 halves of the bound").isNull();
        assertThat(kept.commit(id(4))).isNull();
        AuditedChanges exact = new AuditedChanges(null);
        exact.offered(id(1), large);
        exact.offered(id(2), large);
        assertThat(exact.commit(id(2))).as("exactly the bound").isSameAs(large);
    }

    @Test
    void beyondTheBoundNoMoreCommitsAreKept() {
        AuditedChanges kept = new AuditedChanges(null);
        for (int i = 1; i <= AuditedChanges.MAX_COMMITS + 1; i++) {
            kept.commit(id(i), List.of(id(-i)), List.of());
        }
        assertThat(kept.changes(id(AuditedChanges.MAX_COMMITS))).isEmpty();
        assertThat(kept.changes(id(AuditedChanges.MAX_COMMITS + 1))).isNull();
    }

    @Test
    void beyondTheBoundNoMoreFactsAreKept() {
        AuditedChanges kept = new AuditedChanges(null);
        Fact f = fact("many");
        for (int i = 1; i <= AuditedChanges.MAX_FACTS + 1; i++) {
            kept.fact(id(i), f);
        }
        assertThat(kept.fact(id(AuditedChanges.MAX_FACTS))).isSameAs(f);
        assertThat(kept.fact(id(AuditedChanges.MAX_FACTS + 1))).isNull();
    }

    private static Fact fact(String body) {
        return new Fact(FactId.of("f"), Kind.CLAIM, body, null, List.of());
    }
}
