package dev.palimpsest.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.Limits;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Object access for one audit thread: types, parents, size limits, strict checks and closing. */
class ReadingTest {
    private static final PersonIdent ALICE = new PersonIdent("alice", "alice@example.org", 1_700_000_000_000L, 0);

    @TempDir
    Path dir;

    private Repository repo;
    private int commits;

    @BeforeEach
    void repository() throws Exception {
        repo = new FileRepository(dir.resolve("r.git").toFile());
        repo.create(true);
    }

    @Test
    void anObjectsTypeIsReadAndAMissingObjectHasNone() throws Exception {
        ObjectId blob = insert(Constants.OBJ_BLOB, "x".getBytes(StandardCharsets.UTF_8));
        ObjectId tree = tree(blob);
        ObjectId commit = commit(tree);
        try (Reading r = new Reading(repo.newObjectReader())) {
            assertThat(r.typeOf(blob)).isEqualTo(Constants.OBJ_BLOB);
            assertThat(r.typeOf(tree)).isEqualTo(Constants.OBJ_TREE);
            assertThat(r.typeOf(commit)).isEqualTo(Constants.OBJ_COMMIT);
            assertThat(r.typeOf(ObjectId.fromString("1111111111111111111111111111111111111111"))).isEqualTo(-1);
        }
    }

    @Test
    void aCommitsFirstParentIsReadAndARootCommitHasNone() throws Exception {
        ObjectId tree = tree(insert(Constants.OBJ_BLOB, new byte[0]));
        ObjectId root = commit(tree);
        ObjectId other = commit(tree);
        ObjectId child = commit(tree, root, other);
        try (Reading r = new Reading(repo.newObjectReader())) {
            assertThat(r.firstParentOf(root)).isNull();
            assertThat(r.firstParentOf(child)).isEqualTo(root);
            assertThat(r.treeOf(child)).isEqualTo(tree);
        }
    }

    @Test
    void aBlobOfExactlyTheFileLimitIsReadAndOneByteMoreIsTooLarge() throws Exception {
        ObjectId fits = insert(Constants.OBJ_BLOB, new byte[Limits.MAX_FILE]);
        ObjectId over = insert(Constants.OBJ_BLOB, new byte[Limits.MAX_FILE + 1]);
        try (Reading r = new Reading(repo.newObjectReader())) {
            assertThat(r.bytes(fits, Constants.OBJ_BLOB)).hasSize(Limits.MAX_FILE);
            assertThatThrownBy(() -> r.bytes(over, Constants.OBJ_BLOB)).isInstanceOf(Reading.TooLarge.class)
                    .satisfies(e -> assertThat(((Reading.TooLarge) e).id()).isEqualTo(over));
        }
    }

    @Test
    void aMalformedCommitOrTreeFailsTheStrictChecksEveryTimeItIsRead() throws Exception {
        ObjectId blob = insert(Constants.OBJ_BLOB, "x".getBytes(StandardCharsets.UTF_8));
        ObjectId tree = tree(blob);
        ObjectId badCommit = insert(Constants.OBJ_COMMIT,
                ("tree " + tree.name() + "\nauthor alice <a@x> 1 +0000\n\nno committer\n").getBytes(StandardCharsets.UTF_8));
        ObjectId badTree = insert(Constants.OBJ_TREE, entries(blob, "b", "a"));
        ObjectId goodTree = insert(Constants.OBJ_TREE, entries(blob, "a", "b"));
        try (Reading r = new Reading(repo.newObjectReader())) {
            for (int round = 0; round < 2; round++) {
                assertThatThrownBy(() -> r.bytes(badCommit, Constants.OBJ_COMMIT))
                        .isInstanceOf(MalformedObjectException.class).hasMessageStartingWith("commit " + badCommit.name());
                assertThatThrownBy(() -> r.bytes(badTree, Constants.OBJ_TREE))
                        .isInstanceOf(MalformedObjectException.class).hasMessageStartingWith("tree " + badTree.name());
                assertThat(r.bytes(goodTree, Constants.OBJ_TREE)).isEqualTo(entries(blob, "a", "b"));
            }
        }
    }

    @Test
    void closingAReadingClosesItsReader() {
        AtomicInteger closed = new AtomicInteger();
        ObjectReader own = repo.newObjectReader();
        ObjectReader counted = new ObjectReader.Filter() {
            @Override
            protected ObjectReader delegate() {
                return own;
            }

            @Override
            public void close() {
                closed.incrementAndGet();
                own.close();
            }
        };
        new Reading(counted).close();
        assertThat(closed).hasValue(1);
    }

    private static byte[] entries(ObjectId blob, String... names) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (String n : names) {
            out.writeBytes(("100644 " + n + "\0").getBytes(StandardCharsets.UTF_8));
            byte[] raw = new byte[Constants.OBJECT_ID_LENGTH];
            blob.copyRawTo(raw, 0);
            out.writeBytes(raw);
        }
        return out.toByteArray();
    }

    private ObjectId tree(ObjectId blob) throws Exception {
        TreeFormatter f = new TreeFormatter();
        f.append("f", FileMode.REGULAR_FILE, blob);
        try (ObjectInserter ins = repo.newObjectInserter()) {
            ObjectId id = ins.insert(f);
            ins.flush();
            return id;
        }
    }

    private ObjectId commit(ObjectId tree, ObjectId... parents) throws Exception {
        CommitBuilder b = new CommitBuilder();
        b.setTreeId(tree);
        b.setParentIds(parents);
        b.setAuthor(ALICE);
        b.setCommitter(ALICE);
        b.setMessage("m " + commits++ + "\n");
        try (ObjectInserter ins = repo.newObjectInserter()) {
            ObjectId id = ins.insert(b);
            ins.flush();
            return id;
        }
    }

    private ObjectId insert(int type, byte[] data) throws Exception {
        try (ObjectInserter ins = repo.newObjectInserter()) {
            ObjectId id = ins.insert(type, data);
            ins.flush();
            return id;
        }
    }

    @org.junit.jupiter.api.AfterEach
    void closeRepository() {
        repo.close();
    }
}
