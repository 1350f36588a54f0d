package dev.palimpsest.internal.audit;

import dev.palimpsest.model.FactSpec;
import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.crypto.CommitSignature;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store dates its own commits as the time rules demand: author time, committer time and the
 * signature's creation time are one instant in zone +0000, and a commit is never dated before its
 * parent, even when the parent's clock ran ahead.
 */
class CommitTimeTest {
    @TempDir
    Path dir;

    @Test
    void authorCommitterAndSignatureTimesAreOneInstantInUtc() throws Exception {
        CommitId c;
        try (Store s = TestStores.init(dir)) {
            var t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "A dated fact.").id(FactId.of("f1")));
            c = t.commit().id();
        }
        RawCommit raw = raw(ObjectId.fromString(c.hex()));
        assertThat(raw.author().when()).isEqualTo(raw.committer().when()).endsWith(" +0000");
        long seconds = Long.parseLong(raw.committer().when().split(" ")[0]);
        assertThat(CommitSignature.parse(raw.signature()).created()).isEqualTo(Instant.ofEpochSecond(seconds));
    }

    @Test
    void aCommitOnAParentDatedAheadOfTheClockIsNotDatedBeforeIt() throws Exception {
        TestStores.init(dir).close();
        Instant ahead = Instant.now().truncatedTo(ChronoUnit.SECONDS).plus(Duration.ofMinutes(3));
        Fact f = new Fact(FactId.of("f1"), Kind.CLAIM, "Written on a machine whose clock runs ahead.", null, List.of());
        ObjectId parent = Forge.by(gitDir(), new KeyHome(dir.resolve("home")), "alice")
                .put(StorePaths.factPath(Kind.CLAIM, f.id()), FactCodec.encode(f)).dated(ahead, ahead)
                .trailers("alice", "assert", "Palimpsest-Fact", "f1").commit();
        CommitId child;
        try (Store s = Store.open(gitDir(), new KeyHome(dir.resolve("home")), StoreOptions.defaults().withFsync(false))) {
            child = s.begin(ALICE).revise(f.id(), "Revised on a machine with the right time.", List.of()).commit()
                    .id();
        }
        long parentTime = Long.parseLong(raw(parent).committer().when().split(" ")[0]);
        long childTime = Long.parseLong(raw(ObjectId.fromString(child.hex())).committer().when().split(" ")[0]);
        assertThat(childTime).isGreaterThanOrEqualTo(parentTime);
        try (Auditor a = Auditor.open(gitDir())) {
            assertThat(a.audit(AuditProgress.none()).violations()).isEmpty();
        }
    }

    private RawCommit raw(ObjectId commit) throws Exception {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir().toFile()).build()) {
            return RawCommit.parse(r.open(commit, Constants.OBJ_COMMIT).getCachedBytes());
        }
    }

    private Path gitDir() {
        return dir.resolve("store.git");
    }
}
