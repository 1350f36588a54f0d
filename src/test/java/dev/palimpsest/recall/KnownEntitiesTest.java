package dev.palimpsest.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.KnownEntity;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** known-entities: the normalised keys live facts name, with counts, by prefix, at any commit. */
class KnownEntitiesTest {
    @TempDir
    Path dir;

    @Test
    void listsEveryKeyLiveFactsNameMostNamedFirstThenByKey() throws Exception {
        try (Store s = TestStores.init(dir)) {
            RecallStoriesTest.seedGraph(s);
            assertThat(s.recall().knownEntities("", 100)).containsExactly(new KnownEntity("auth service", 3),
                    new KnownEntity("redis", 3), new KnownEntity("platform team", 2), new KnownEntity("7 2 4", 1),
                    new KnownEntity("billing service", 1), new KnownEntity("connection leak under tls", 1),
                    new KnownEntity("pagerduty schedule p7", 1));
            assertThat(s.recall().knownEntities("", 2)).extracting(KnownEntity::key).containsExactly("auth service",
                    "redis");
        }
    }

    @Test
    void aPrefixIsNormalisedLikeAKeyAndMatchesTheStartOfKeys() throws Exception {
        try (Store s = TestStores.init(dir)) {
            RecallStoriesTest.seedGraph(s);
            assertThat(s.recall().knownEntities("Auth-", 10)).containsExactly(new KnownEntity("auth service", 3));
            assertThat(s.recall().knownEntities("RE", 10)).containsExactly(new KnownEntity("redis", 3));
            assertThat(s.recall().knownEntities("zebra", 10)).isEmpty();
        }
    }

    @Test
    void countsOnlyFactsLiveAtTheCommitAsked() throws Exception {
        try (Store s = TestStores.init(dir)) {
            RecallStoriesTest.seedGraph(s);
            CommitId before = s.head();
            var tx = s.begin(TestStores.ALICE);
            tx.retract(FactId.of("r2"), "not reproducible");
            tx.commit();
            assertThat(s.recall().knownEntities("redis", 10)).containsExactly(new KnownEntity("redis", 2));
            assertThat(s.recall().knownEntities("redis", 10, before)).containsExactly(new KnownEntity("redis", 3));
            assertThat(s.recall().knownEntities("connection", 10)).isEmpty();
            assertThatThrownBy(() -> s.recall().knownEntities("", 0)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aKeyOverTheTermLimitIsListedAsItself() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId doc = RecallStoriesTest.source(s, "doc");
            String huge = "w".repeat(2000);
            RecallStoriesTest.claim(s, "h", huge, "is", "long", doc);
            assertThat(s.recall().knownEntities("ww", 10)).containsExactly(new KnownEntity(huge, 1));
            assertThat(s.recall().knownEntities("", 10)).extracting(KnownEntity::key).contains(huge, "long");
            List<KnownEntity> none = s.recall().knownEntities("wx", 10);
            assertThat(none).isEmpty();
        }
    }
}
