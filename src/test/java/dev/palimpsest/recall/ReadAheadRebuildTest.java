package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rebuild long enough to be read ahead on a worker thread (hundreds of commits) answers every
 * question at every commit exactly as the index the writer kept up to date commit by commit.
 */
@ExtendWith(Seeds.class)
class ReadAheadRebuildTest {
    @TempDir
    Path dir;

    @Test
    void aReadAheadRebuildAnswersAsTheWritersIndexDid(Seed seed) throws Exception {
        Random rnd = seed.random();
        List<CommitId> commits = new ArrayList<>();
        Map<String, List<List<String>>> asked = new LinkedHashMap<>();
        Path gitDir;
        List<String> live = new ArrayList<>();
        try (Store s = TestStores.init(dir)) {
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.SOURCE, "the runbook").id(FactId.of("doc")));
            tx.commit();
            s.recall().search(SearchQuery.builder("runbook").build()); // the index follows every write from here
            for (int i = 0; i < 180; i++) {
                String subject = "svc-" + rnd.nextInt(12);
                ClaimSpec spec = ClaimSpec.of(subject, "depends on", "store " + rnd.nextInt(30), FactId.of("doc"))
                        .id(FactId.of("c" + i));
                if (!live.isEmpty() && rnd.nextInt(5) == 0) {
                    String old = live.remove(rnd.nextInt(live.size()));
                    s.claims().supersede(TestStores.ALICE, FactId.of(old), spec);
                } else if (!live.isEmpty() && rnd.nextInt(9) == 0) {
                    String old = live.remove(rnd.nextInt(live.size()));
                    var r = s.begin(TestStores.ALICE);
                    r.retract(FactId.of(old), "wrong");
                    r.commit();
                    s.claims().claim(TestStores.ALICE, spec);
                } else {
                    s.claims().claim(TestStores.ALICE, spec);
                }
                live.add("c" + i);
                commits.add(s.head());
            }
            for (String q : List.of("svc-3", "svc-7", "store 4 store", "svcc-1")) {
                List<List<String>> answers = new ArrayList<>();
                for (int k = 0; k < commits.size(); k += 7) {
                    answers.add(ask(s, q, commits.get(k)));
                }
                asked.put(q, answers);
            }
            gitDir = s.gitDir();
        }
        assertThat(asked.get("svc-3")).anySatisfy(a -> assertThat(a).isNotEmpty());
        Path index = gitDir.resolve("palimpsest-index/search-v1");
        try (Stream<Path> files = Files.walk(index)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
        try (Store s = Store.open(gitDir, new KeyHome(dir.resolve("home")))) {
            for (Map.Entry<String, List<List<String>>> e : asked.entrySet()) {
                List<List<String>> again = new ArrayList<>();
                for (int k = 0; k < commits.size(); k += 7) {
                    again.add(ask(s, e.getKey(), commits.get(k)));
                }
                assertThat(again).as(e.getKey()).isEqualTo(e.getValue());
            }
        }
    }

    private static List<String> ask(Store s, String q, CommitId at) throws Exception {
        SearchQuery query = q.startsWith("svc-") ? SearchQuery.builder().entity(q).at(at).build() : SearchQuery.builder(q).at(at).build();
        List<String> out = new ArrayList<>();
        for (SearchHit h : s.recall().search(query)) {
            out.add(h.id().value() + " " + h.channel() + " " + h.score() + " " + h.hops() + " " + h.via());
        }
        return out;
    }
}
