package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.testing.Forgery;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
            List<SearchHit> hits = s.recall().search(SearchQuery.of("redis", List.of()).with(10, 0));
            assertThat(RecallStoriesTest.ids(hits)).containsExactlyInAnyOrder("a1", "r1", "r2");
        }
    }
}
