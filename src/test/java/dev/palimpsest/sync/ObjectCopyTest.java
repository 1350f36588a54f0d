package dev.palimpsest.sync;

import static dev.palimpsest.sync.Replicas.BOB;
import static dev.palimpsest.sync.ReplicationTest.assertFact;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.Remote;
import dev.palimpsest.model.TransferProgress;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.DeflaterOutputStream;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pull from a remote on this machine copies only objects that hash to their ids. */
class ObjectCopyTest {
    private static final TransferProgress NONE = TransferProgress.none();

    @TempDir
    Path dir;

    @Test
    void aBlobWhoseBytesDoNotHashToItsIdFailsThePullAndNothingIsAdopted() throws Exception {
        forgedPullFails(false);
    }

    @Test
    void aTreeWhoseBytesDoNotHashToItsIdFailsThePullAndNothingIsAdopted() throws Exception {
        forgedPullFails(true);
    }

    /** A hub copy whose new commit names a blob (or a tree) stored under its id with other bytes. */
    private void forgedPullFails(boolean tree) throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        Path forged = Replicas.copy(rs.hub, dir.resolve("forged.git"));
        ObjectId claimed;
        ObjectId tip;
        try (Repository r = new FileRepositoryBuilder().setGitDir(forged.toFile()).setMustExist(true).build();
                ObjectInserter ins = r.newObjectInserter()) {
            ObjectId root;
            if (tree) {
                ObjectId blob = ins.insert(Constants.OBJ_BLOB, "a file\n".getBytes(StandardCharsets.UTF_8));
                TreeFormatter honest = new TreeFormatter();
                honest.append("forged.yaml", FileMode.REGULAR_FILE, blob);
                TreeFormatter other = new TreeFormatter();
                other.append("other.yaml", FileMode.REGULAR_FILE, blob);
                claimed = ins.idFor(honest);
                writeLoose(forged, claimed, Constants.OBJ_TREE, other.toByteArray());
                TreeFormatter t = new TreeFormatter();
                t.append("folder", FileMode.TREE, claimed);
                root = ins.insert(t);
            } else {
                byte[] honest = "a fact file as the signer wrote it\n".getBytes(StandardCharsets.UTF_8);
                claimed = ins.idFor(Constants.OBJ_BLOB, honest);
                writeLoose(forged, claimed, Constants.OBJ_BLOB,
                        "a different file under the same id\n".getBytes(StandardCharsets.UTF_8));
                TreeFormatter t = new TreeFormatter();
                t.append("forged.yaml", FileMode.REGULAR_FILE, claimed);
                root = ins.insert(t);
            }
            ObjectId main = r.resolve("refs/heads/main");
            CommitBuilder cb = new CommitBuilder();
            cb.setTreeId(root);
            cb.setParentId(main);
            PersonIdent who = new PersonIdent("bob", "bob@example.org");
            cb.setAuthor(who);
            cb.setCommitter(who);
            cb.setMessage("forged\n");
            tip = ins.insert(cb);
            ins.flush();
            RefUpdate u = r.updateRef("refs/heads/main");
            u.setNewObjectId(tip);
            u.forceUpdate();
        }
        try (Store s = rs.open(a)) {
            var before = s.head();
            s.replication().addRemote(new Remote("forged", forged.toString()));
            assertThatThrownBy(() -> s.replication().pullAs("forged", BOB, NONE))
                    .isInstanceOf(PalimpsestInternalException.class)
                    .hasMessageContaining(claimed.name() + " from the remote hashes to");
            assertThat(s.head()).isEqualTo(before);
        }
        try (Repository r = new FileRepositoryBuilder().setGitDir(a.toFile()).setMustExist(true).build()) {
            assertThat(r.getObjectDatabase().has(claimed)).isFalse();
            assertThat(r.getObjectDatabase().has(tip)).isFalse();
        }
        assertThat(Replicas.audit(a).violations()).isEmpty();
    }

    @Test
    void aPullCopiesEveryObjectTheNewCommitsReachAndFsckIsClean() throws Exception {
        Replicas rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            for (int i = 0; i < 30; i++) {
                assertFact(s, BOB, "f-" + i, "Fact number " + i + " written on replica a.");
            }
            s.replication().push("origin", NONE);
        }
        try (Store s = rs.open(b)) {
            assertThat(s.replication().pullAs("origin", BOB, NONE)).isInstanceOf(PullResult.FastForward.class);
        }
        assertThat(Replicas.head(b)).isEqualTo(Replicas.head(rs.hub));
        Replicas.Result fsck = Replicas.git(b, "fsck", "--strict", "--no-dangling");
        assertThat(fsck.code()).as(fsck.output()).isZero();
        Replicas.Result missing = Replicas.git(b, "rev-list", "--objects", "--missing=print", "main");
        assertThat(missing.output()).doesNotContain("?");
        assertThat(Replicas.audit(b).violations()).isEmpty();
    }

    private static void writeLoose(Path gitDir, ObjectId id, int type, byte[] content) throws Exception {
        ByteArrayOutputStream z = new ByteArrayOutputStream();
        try (DeflaterOutputStream out = new DeflaterOutputStream(z)) {
            out.write((Constants.typeString(type) + " " + content.length + "\0").getBytes(StandardCharsets.US_ASCII));
            out.write(content);
        }
        Path p = gitDir.resolve("objects").resolve(id.name().substring(0, 2)).resolve(id.name().substring(2));
        Files.createDirectories(p.getParent());
        Files.write(p, z.toByteArray());
    }
}
