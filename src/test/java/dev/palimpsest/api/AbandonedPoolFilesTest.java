package dev.palimpsest.api;

import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.StoreOptions;
import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.git.FilePool;
import dev.palimpsest.model.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A writer that died between claiming a pool file and renaming it leaves it behind; the next writer deletes it. */
class AbandonedPoolFilesTest {
    @TempDir
    Path dir;

    @Test
    void theFirstWriteOfAProcessDeletesClaimedFilesOlderThanTenMinutesAndKeepsRecentOnes() throws Exception {
        Path gitDir;
        try (Store s = TestStores.init(dir)) {
            gitDir = s.gitDir();
        }
        Path tmp = gitDir.resolve(FilePool.DIR);
        Path dead = Files.write(tmp.resolve("0123456789abcdef.taken"), new byte[4096]);
        Files.setLastModifiedTime(dead, FileTime.from(Instant.now().minus(11, ChronoUnit.MINUTES)));
        Path recent = Files.write(tmp.resolve("fedcba9876543210.taken"), new byte[16]);
        Files.setLastModifiedTime(recent, FileTime.from(Instant.now().minus(9, ChronoUnit.MINUTES)));
        try (Store s = Store.open(gitDir, new KeyHome(dir.resolve("home")), StoreOptions.defaults().withFsync(false))) {
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "a fact written after a crash"));
            tx.commit();
        }
        assertThat(dead).doesNotExist();
        assertThat(recent).exists();
    }
}
