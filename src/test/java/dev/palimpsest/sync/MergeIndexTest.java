package dev.palimpsest.sync;

import static dev.palimpsest.sync.Replicas.ALICE;
import static dev.palimpsest.sync.Replicas.BOB;
import static dev.palimpsest.sync.Replicas.CAROL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.TransferProgress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The derived indexes (predicate index, claims index, search index) answer across a merge commit and across a
 * fast-forward onto a merge whose first-parent chain does not hold the old tip exactly as indexes
 * rebuilt from git alone do. The claims index covers main's first-parent chain only: a replica's
 * old tip that a fast-forward left on a merge's second-parent side is "not on main's history" to
 * claim questions, while fact reads still answer there.
 */
class MergeIndexTest {
    private static final TransferProgress NONE = TransferProgress.none();
    private static final FactId SRC = FactId.of("incident-1");

    @TempDir
    Path dir;

    @Test
    void indexesAnswerAcrossAMergeAndAFastForwardAsARebuildDoes() throws Exception {
        Replicas rs = Replicas.create(dir);
        try (Store hub = rs.open(rs.hub)) {
            var tx = hub.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.SOURCE, "Incident 1: auth-service timed out.").id(SRC));
            tx.commit();
        }
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        CommitId aTip;
        try (Store s = rs.open(a)) {
            s.claims().claim(BOB, ClaimSpec.of("auth-service", "times out after", "10s", SRC).id(FactId.of("t-a")));
            ReplicationTest.assertFact(s, BOB, "x", "Written on a.");
            s.replication().push("origin", NONE);
            aTip = s.head();
        }
        List<String> atA = answers(a, aTip);
        List<String> merged;
        try (Store s = rs.open(b)) {
            s.claims().claim(CAROL, ClaimSpec.of("auth-service", "times out after", "30s", SRC).id(FactId.of("t-b")));
            s.begin(CAROL).retract(SRC, "the incident report was withdrawn").commit();
            assertThat(s.claims().at(s.head()).current("auth-service", "times out after")).hasSize(1);
            assertThat(s.replication().pullAs("origin", CAROL, NONE)).isInstanceOf(PullResult.Merged.class);
            assertThat(s.claims().at(s.head()).current("auth-service", "times out after")).hasSize(2);
            assertThat(s.claims().at(s.head()).contradictions("auth-service")).hasSize(1);
            assertThat(s.read(FactId.of("x"), s.head())).isInstanceOf(FactRead.Found.class);
            assertThat(s.read(SRC, s.head())).isInstanceOf(FactRead.Retracted.class);
            s.replication().push("origin", NONE);
            merged = answers(s, s.head());
        }
        assertThat(answers(b, Replicas.headId(b))).isEqualTo(merged);
        assertThat(rebuilt(b)).isEqualTo(merged);
        try (Store s = rs.open(a)) {
            assertThat(s.claims().at(s.head()).current("auth-service", "times out after")).hasSize(1);
            assertThat(s.replication().pullAs("origin", ALICE, NONE)).isInstanceOf(PullResult.FastForward.class);
            assertThat(answers(s, s.head())).isEqualTo(merged);
            assertThat(facts(s, aTip)).isEqualTo(atA.subList(0, 4));
            CommitId old = aTip;
            assertThatThrownBy(() -> s.claims().at(old).current("auth-service", "times out after"))
                    .isInstanceOf(NotFoundException.class).hasMessageContaining("not on main's history");
        }
        assertThat(rebuilt(a)).isEqualTo(merged);
    }

    private List<String> answers(Path store, CommitId at) throws Exception {
        try (Store s = new Replicas(dir).open(store)) {
            return answers(s, at);
        }
    }

    private List<String> rebuilt(Path store) throws Exception {
        Path index = store.resolve("palimpsest-index");
        try (Stream<Path> files = Files.walk(index)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        return answers(store, Replicas.headId(store));
    }

    private static List<String> answers(Store s, CommitId at) throws Exception {
        List<String> out = facts(s, at);
        out.add("current " + s.claims().at(at).current("auth-service", "times out after").stream()
                .map(c -> c.id().value()).sorted().toList());
        out.add("contradictions " + s.claims().at(at).contradictions("auth-service").size());
        out.add("stale t-a " + s.stale(FactId.of("t-a"), at));
        out.add("search " + s.recall().search(SearchQuery.builder("written").entity("auth-service").at(at).build()).stream()
                .map(h -> h.id().value() + " " + h.channel() + " " + h.hops()).sorted().toList());
        return out;
    }

    private static List<String> facts(Store s, CommitId at) throws Exception {
        List<String> out = new ArrayList<>();
        for (String id : List.of("incident-1", "t-a", "t-b", "x")) {
            try {
                FactRead r = s.read(FactId.of(id), at);
                out.add(id + " " + r.getClass().getSimpleName() + " " + s.factLiveAtCommit(FactId.of(id), at));
            } catch (dev.palimpsest.model.NotFoundException e) {
                out.add(id + " never");
            }
        }
        return out;
    }
}
