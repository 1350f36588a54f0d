package dev.palimpsest.api;

import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.AuditProgress;
import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexAuditTest {
    @TempDir
    Path dir;

    @Test
    void aCorruptPersistedIndexIsReportedDiscardedAndRebuilt() throws Exception {
        Path gitDir;
        try (Store s = TestStores.init(dir)) {
            for (int i = 0; i < 5; i++) {
                Transaction tx = s.begin(ALICE);
                tx.assertFact(FactSpec.of(Kind.CLAIM, "fact " + i).id(FactId.of("f" + i)));
                tx.commit();
            }
            gitDir = s.gitDir();
        }
        KeyHome home = new KeyHome(dir.resolve("home"));
        try (Auditor a = Auditor.open(gitDir)) {
            assertThat(a.audit(AuditProgress.none()).violations()).isEmpty();
        }
        Path log = gitDir.resolve("palimpsest-index/index-v1.log");
        byte[] b = Files.readAllBytes(log);
        b[b.length - 30] ^= (byte) 0xff;
        Files.write(log, b);
        try (Auditor a = Auditor.open(gitDir)) {
            AuditReport r = a.audit(AuditProgress.none());
            assertThat(r.violations()).extracting(v -> v.rule().id()).containsExactly("index-disagrees");
        }
        assertThat(log).doesNotExist();
        try (Store s = Store.open(gitDir, home, StoreOptions.defaults())) {
            assertThat(s.factLiveAtCommit(FactId.of("f4"), s.head())).isTrue();
        }
        assertThat(log).exists();
        try (Auditor a = Auditor.open(gitDir)) {
            assertThat(a.audit(AuditProgress.none()).violations()).isEmpty();
        }
    }
}
