package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.Brief;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.testing.Forgery;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files no writer makes, in a commit on main: search indexes the facts around them and nothing of them. */
class ForgedFilesSearchTest {
    @TempDir
    Path dir;

    @Test
    void aFileNamedLikeAFactFolderAtTheTopStatesNothingToFind() throws Exception {
        Path g;
        try (Store s = TestStores.init(dir)) {
            RecallStoriesTest.seedGraph(s);
            g = s.gitDir();
        }
        Forgery.unsignedCommitOnMain(g, "mallory", Map.of("artifacts", "redis leaks".getBytes(StandardCharsets.UTF_8)));
        try (Store s = Store.open(g, new KeyHome(dir.resolve("home")))) {
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("redis").build().with(10, 0));
            assertThat(RecallStoriesTest.ids(hits)).containsExactlyInAnyOrder("a1", "r1", "r2");
        }
    }

    @Test
    void aMalformedFileInAFactFolderStatesNothingToFind() throws Exception {
        Path g;
        try (Store s = TestStores.init(dir)) {
            RecallStoriesTest.seedGraph(s);
            assertThat(s.recall().search(SearchQuery.builder("redis").build())).isNotEmpty(); // indexed up to here
            g = s.gitDir();
        }
        String path = StorePaths.factPath(Kind.CLAIM, FactId.of("bad"));
        Forgery.unsignedCommitOnMain(g, "mallory", Map.of(path, "id: [redis leaks".getBytes(StandardCharsets.UTF_8)));
        try (Store s = Store.open(g, new KeyHome(dir.resolve("home")))) {
            List<SearchHit> hits = s.recall().search(SearchQuery.builder("redis").build().with(10, 0));
            assertThat(RecallStoriesTest.ids(hits)).containsExactlyInAnyOrder("a1", "r1", "r2");
        }
    }

    @Test
    void aHitAndItsBriefLineTellTheAuthorsTimeNotTheCommitters() throws Exception {
        Path g;
        try (Store s = TestStores.init(dir)) {
            RecallStoriesTest.seedGraph(s);
            assertThat(s.recall().search(SearchQuery.builder("redis").build())).isNotEmpty();
            g = s.gitDir();
        }
        String from = StorePaths.factPath(Kind.CLAIM, FactId.of("r1"));
        byte[] copy;
        try (Repository r = new FileRepositoryBuilder().setGitDir(g.toFile()).setMustExist(true).build()) {
            copy = new String(r.open(r.resolve("refs/heads/main:" + from)).getBytes(), StandardCharsets.UTF_8)
                    .replace("r1", "r9").replace("7.2.4", "6.0.1").getBytes(StandardCharsets.UTF_8);
        }
        Instant authored = Instant.parse("2001-02-03T04:05:06Z");
        Forgery.unsignedCommitOnMain(g, new PersonIdent("alice", "alice@example.org", authored, ZoneOffset.UTC),
                new PersonIdent("alice", "alice@example.org", Instant.now(), ZoneOffset.UTC),
                Map.of(StorePaths.factPath(Kind.CLAIM, FactId.of("r9")), copy));
        try (Store s = Store.open(g, new KeyHome(dir.resolve("home")))) {
            List<SearchHit> hits = s.recall().search(RecallStoriesTest.about("redis"));
            assertThat(hits).filteredOn(h -> h.id().value().equals("r9")).singleElement()
                    .satisfies(h -> assertThat(h.time()).isEqualTo(authored));
            Brief b = s.recall().brief(BriefRequest.builder().entity("redis").build());
            assertThat(b.sections()).extracting(Brief.Section::name).contains(Brief.CONTRADICTIONS);
            assertThat(b.text()).contains("'6.0.1' (r9, source arch-md)")
                    .contains("\n- 2001-02-03, run run-12, source arch-md:\n  - r9: redis runs version 6.0.1\n");
        }
    }
}
