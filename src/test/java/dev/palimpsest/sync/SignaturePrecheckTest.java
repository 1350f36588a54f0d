package dev.palimpsest.sync;

import static dev.palimpsest.sync.Replicas.BOB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.internal.audit.SignaturePrecheck;
import dev.palimpsest.internal.crypto.TrustedKey;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.TransferProgress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The signatures a pull from a file remote verifies while it copies objects: each incoming commit
 * signed by a key trusted at main counts as verified for that key only, and a commit carrying a
 * signature transplanted from another commit is not, so the audit still refuses it (bad-signature).
 */
class SignaturePrecheckTest {
    @TempDir
    Path dir;

    @Test
    void verifiesTheIncomingSignaturesForTheSigningKeyOnly() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        List<ObjectId> written = new ArrayList<>();
        try (Store s = rs.open(rs.hub)) {
            for (int i = 0; i < 3; i++) {
                ReplicationTest.assertFact(s, BOB, "f" + i, "Fact " + i + " from the hub.");
                written.add(ObjectId.fromString(s.head().hex()));
            }
        }
        try (Repository hub = repo(rs.hub); Repository local = repo(a)) {
            ObjectId have = local.resolve("refs/heads/main");
            List<TrustedKey> keys = SignaturePrecheck.keysAt(local, have);
            TrustedKey bob = keys.stream().filter(k -> "bob@example.org".equals(k.email())).findFirst().orElseThrow();
            TrustedKey carol = keys.stream().filter(k -> "carol@example.org".equals(k.email())).findFirst().orElseThrow();
            SignaturePrecheck p = SignaturePrecheck.start(hub, hub.resolve("refs/heads/main"), List.of(have), keys);
            p.await();
            for (ObjectId c : written) {
                assertThat(p.verified(c, bob)).isTrue();
                assertThat(p.verified(c, carol)).isFalse();
            }
            assertThat(p.verified(have, bob)).isFalse();
        }
    }

    @Test
    void aFedPrecheckVerifiesOnlyBytesThatHashToTheCommitAndHandsOutTheirSignatureOnce() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        try (Store s = rs.open(rs.hub)) {
            ReplicationTest.assertFact(s, BOB, "f", "A fact from the hub.");
        }
        try (Repository hub = repo(rs.hub); Repository local = repo(a); RevWalk w = new RevWalk(hub)) {
            ObjectId have = local.resolve("refs/heads/main");
            RevCommit c = w.parseCommit(hub.resolve("refs/heads/main"));
            ObjectId other = have;
            List<TrustedKey> keys = SignaturePrecheck.keysAt(local, have);
            TrustedKey bob = keys.stream().filter(k -> "bob@example.org".equals(k.email())).findFirst().orElseThrow();
            SignaturePrecheck p = SignaturePrecheck.fed(keys);
            p.offer(c.copy(), c.getRawBuffer());
            p.offer(other, c.getRawBuffer());
            p.finish();
            assertThat(p.verified(c, bob)).isTrue();
            assertThat(p.verified(other, bob)).as("bytes of another commit").isFalse();
            assertThat(p.parsed(other)).isNull();
            assertThat(p.parsed(c)).isNotNull();
            assertThat(p.parsed(c)).as("handed out once").isNull();
        }
    }

    @Test
    void aTransplantedSignatureIsNotVerifiedAndThePullIsRefused() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        try (Store s = rs.open(rs.hub)) {
            ReplicationTest.assertFact(s, BOB, "f", "A fact from the hub.");
        }
        ObjectId forged;
        try (Repository hub = repo(rs.hub); ObjectInserter ins = hub.newObjectInserter(); RevWalk w = new RevWalk(hub)) {
            ObjectId main = hub.resolve("refs/heads/main");
            RevCommit c = w.parseCommit(main);
            String raw = new String(c.getRawBuffer(), StandardCharsets.UTF_8);
            String body = raw.replaceFirst("(?m)^parent [0-9a-f]{40}$", "parent " + main.name());
            forged = ins.insert(Constants.OBJ_COMMIT, body.getBytes(StandardCharsets.UTF_8));
            ins.flush();
            RefUpdate u = hub.updateRef("refs/heads/main");
            u.setNewObjectId(forged);
            u.setExpectedOldObjectId(main);
            assertThat(u.update()).isEqualTo(RefUpdate.Result.FAST_FORWARD);
            try (Repository local = repo(a)) {
                ObjectId have = local.resolve("refs/heads/main");
                SignaturePrecheck p = SignaturePrecheck.start(hub, forged, List.of(have),
                        SignaturePrecheck.keysAt(local, have));
                p.await();
                TrustedKey bob = SignaturePrecheck.keysAt(local, have).stream()
                        .filter(k -> "bob@example.org".equals(k.email())).findFirst().orElseThrow();
                assertThat(p.verified(main, bob)).isTrue();
                assertThat(p.verified(forged, bob)).isFalse();
            }
        }
        try (Store s = rs.open(a)) {
            PullResult r = s.replication().pull("origin", BOB, TransferProgress.none());
            assertThat(r).isInstanceOf(PullResult.Refused.class);
            assertThat(((PullResult.Refused) r).report().violations())
                    .anyMatch(v -> v.rule() == Rule.BAD_SIGNATURE && v.commit().hex().equals(forged.name()));
        }
    }

    private static Repository repo(Path gitDir) throws Exception {
        return new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
    }
}
