package dev.palimpsest.internal.audit;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.TombstoneRecord;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Rule;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the forget rules say: a tombstone changed or removed, and a digest other than the sealed one. */
class ForgetCheckMessagesTest {
    private static final FactId SX = FactId.of("sx");

    @TempDir
    Path dir;

    @Test
    void aTombstoneWithAnotherDigestThenChangedThenRemovedIsReportedInThoseWords() throws Exception {
        String digest;
        try (Store s = TestStores.init(dir)) {
            var tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.of("note"), "Sealed words of sx here.").id(SX).asSensitive());
            CommitId at = tx.commit().id();
            digest = ((FactRead.Found) s.read(SX, at)).fact().seal().digest();
        }
        Path gitDir = dir.resolve("store.git");
        Forge.by(gitDir, new KeyHome(dir.resolve("home")), "alice").remove(StorePaths.factPath(Kind.of("note"), SX))
                .put(StorePaths.tombstonePath(SX), tombstone("0".repeat(64), "gone"))
                .trailers("alice", "forget", "Palimpsest-Fact", SX.value()).commit();
        Forge.by(gitDir, new KeyHome(dir.resolve("home")), "alice")
                .put(StorePaths.tombstonePath(SX), tombstone("0".repeat(64), "gone, and why"))
                .trailers("alice", "forget", "Palimpsest-Fact", SX.value()).commit();
        Forge.by(gitDir, new KeyHome(dir.resolve("home")), "alice").remove(StorePaths.tombstonePath(SX))
                .trailers("alice", "forget", "Palimpsest-Fact", SX.value()).commit();
        List<AuditViolation> vs;
        try (Auditor a = Auditor.open(gitDir)) {
            vs = a.audit(AuditProgress.none()).violations();
        }
        assertThat(vs).filteredOn(v -> v.rule() == Rule.FORGET_INCONSISTENT).extracting(AuditViolation::message)
                .containsExactly("the digest is not the sealed digest of sx's last version (" + digest + ")");
        assertThat(vs).filteredOn(v -> v.rule() == Rule.TOMBSTONE_REWRITTEN).extracting(AuditViolation::message)
                .containsExactly("a tombstone is never changed", "a tombstone is never removed");
    }

    private static byte[] tombstone(String digest, String reason) {
        return TombstoneRecord.encode(new TombstoneRecord(SX, digest, reason, ALICE, null, new TreeSet<>()));
    }
}
