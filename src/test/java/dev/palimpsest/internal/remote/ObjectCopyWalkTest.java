package dev.palimpsest.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.git.GitRepo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.eclipse.jgit.internal.storage.dfs.DfsRepositoryDescription;
import org.eclipse.jgit.internal.storage.dfs.InMemoryRepository;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.internal.storage.file.GC;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.ProgressMonitor;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.ObjectWalk;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevObject;
import org.eclipse.jgit.util.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ObjectCopy#copy} takes exactly the objects JGit's {@link ObjectWalk} finds from the tip and
 * not from the haves, when the local repository holds the haves' objects partly packed and partly
 * loose (only unchanged entries of the first parent's folders keep loose objects from being copied
 * again); it hands the commits over parents first whatever their dates, reports its progress, and
 * reads an object too large to be held whole through its stream.
 */
class ObjectCopyWalkTest {
    @TempDir
    Path dir;

    /** H1 (packed locally), H2 (loose locally), then C1, C2, C3 on the remote only, each dated before its parent. */
    private static final class History {
        final ObjectId h1;
        final ObjectId h2;
        final List<ObjectId> copied = new ArrayList<>();

        History(ObjectInserter ins, Repository localOrNull) throws IOException {
            TreeMap<String, String> files = new TreeMap<>();
            for (int i = 0; i < 10; i++) {
                files.put("a/f" + i, "file " + i + "\n");
            }
            for (int i = 0; i < 5; i++) {
                files.put("a/deep/x" + i, "deep " + i + "\n");
            }
            files.put("a-", "a dash\n");
            files.put("a.b", "a dot b\n");
            files.put("a0", "a zero\n");
            files.put("z", "zed\n");
            for (int i = 0; i < 3; i++) {
                files.put("keep/k" + i, "kept " + i + "\n");
            }
            h1 = commit(ins, files, null, 1000);
            if (localOrNull != null) {
                RefUpdate u = localOrNull.updateRef(GitRepo.MAIN);
                u.setNewObjectId(h1);
                u.forceUpdate();
                new GC((FileRepository) localOrNull).repack();
            }
            files.put("a/f0", "file 0, second version\n");
            files.put("a/deep/y", "deep y\n");
            h2 = commit(ins, files, h1, 2000);
            if (localOrNull != null) {
                return;
            }
            files.put("keep/k9", files.remove("keep/k0"));
            files.put("a/deep/x0", "deep 0, changed on the remote\n");
            copied.add(commit(ins, files, h2, 5000));
            files.put("a/f2", "file 2, changed on the remote\n");
            files.put("z", "zed, changed\n");
            copied.add(commit(ins, files, copied.get(0), 4000));
            files.put("a/deep/x1", "deep 1, changed on the remote\n");
            copied.add(commit(ins, files, copied.get(1), 3000));
        }
    }

    @Test
    void aCopyTakesExactlyWhatTheTipReachesAndTheHavesDoNotParentsFirst() throws Exception {
        InMemoryRepository remote = remote();
        History h = new History(remote.newObjectInserter(), null);
        try (GitRepo local = local("local.git")) {
            List<ObjectId> expected = walk(remote, h.copied.get(2), h.h2);
            List<ObjectId> delivered = new ArrayList<>();
            Recording monitor = new Recording();
            Unflushed unflushed = new Unflushed();
            List<String> headers = new ArrayList<>();
            int copied = ObjectCopy.copy(local, remote, h.copied.get(2), List.of(h.h2), monitor, unflushed,
                    (id, tree, parents, raw) -> {
                        delivered.add(id);
                        RevCommit c = RevCommit.parse(raw);
                        headers.add(tree.name() + " " + parents);
                        assertThat(tree).isEqualTo(c.getTree());
                        assertThat(parents).containsExactly(c.getParents());
                    });
            assertThat(copied).isEqualTo(expected.size());
            assertThat(delivered).as("commits, parents first though each is dated before its parent")
                    .containsExactlyElementsOf(h.copied);
            assertThat(monitor.tasks).containsExactly("Copying objects " + ProgressMonitor.UNKNOWN);
            assertThat(monitor.updates).containsExactly(copied);
            assertThat(unflushed.size()).isZero();
            assertThat(headers).hasSize(3).doesNotHaveDuplicates();
            for (ObjectId id : expected) {
                assertThat(local.repository().getObjectDatabase().has(id)).as(id.name()).isTrue();
            }
        }
    }

    @Test
    void aForkWhoseBaseIsDatedAfterItsBranchesIsStillHandedOverParentsFirst() throws Exception {
        InMemoryRepository remote = remote();
        ObjectInserter ins = remote.newObjectInserter();
        History h = new History(ins, null);
        TreeMap<String, String> files = new TreeMap<>();
        files.put("fork", "the fork\n");
        ObjectId fork = commit(ins, files, h.h2, 9000);
        files.put("left", "left\n");
        ObjectId left = commit(ins, files, fork, 1000);
        files.remove("left");
        files.put("right", "right\n");
        ObjectId right = commit(ins, files, fork, 5000);
        files.put("left", "left\n");
        CommitBuilder cb = new CommitBuilder();
        cb.setTreeId(tree(ins, files, ""));
        cb.setParentIds(left, right);
        PersonIdent who = new PersonIdent("bob", "bob@example.org", java.time.Instant.ofEpochSecond(6000),
                java.time.ZoneOffset.UTC);
        cb.setAuthor(who);
        cb.setCommitter(who);
        cb.setMessage("merge\n");
        ObjectId merge = ins.insert(cb);
        ins.flush();
        try (GitRepo local = local("local.git")) {
            List<ObjectId> delivered = new ArrayList<>();
            int copied = ObjectCopy.copy(local, remote, merge, List.of(h.h2), new Recording(), new Unflushed(),
                    (id, tree, parents, raw) -> delivered.add(id));
            assertThat(copied).isEqualTo(walk(remote, merge, h.h2).size());
            assertThat(delivered).hasSize(4).startsWith(fork).endsWith(merge).contains(left, right);
        }
    }

    @Test
    void aPackIsWrittenAsSoonAsThePendingBytesReachTheBound() throws Exception {
        InMemoryRepository remote = remote();
        History h = new History(remote.newObjectInserter(), null);
        long firstCommitBytes;
        try (GitRepo first = local("first.git")) {
            long before = packBytes(first);
            ObjectCopy.copy(first, remote, h.copied.get(0), List.of(h.h2), new Recording(), new Unflushed(), (id, tree, parents, raw) -> { });
            firstCommitBytes = packBytes(first) - before - 32;
        }
        ObjectCopy.packBytes = firstCommitBytes;
        try (GitRepo local = local("local.git")) {
            Unflushed unflushed = new Unflushed();
            List<Integer> held = new ArrayList<>();
            ObjectCopy.copy(local, remote, h.copied.get(2), List.of(h.h2), new Recording(), unflushed,
                    (id, tree, parents, raw) -> held.add(unflushed.size()));
            assertThat(held.get(0)).as("objects held once the first commit's pending bytes reached the bound").isZero();
            assertThat(held.get(1)).isPositive();
        } finally {
            ObjectCopy.packBytes = ObjectCopy.PACK_BYTES;
        }
    }

    @Test
    void progressIsReportedByThousandsAndTheRestAtTheEnd() throws Exception {
        InMemoryRepository remote = remote();
        TreeMap<String, String> files = new TreeMap<>();
        for (int i = 0; i < 1200; i++) {
            files.put("f" + i, "blob " + i + "\n");
        }
        ObjectId tip = commit(remote.newObjectInserter(), files, null, 1000);
        try (GitRepo local = local("local.git")) {
            Recording monitor = new Recording();
            int copied = ObjectCopy.copy(local, remote, tip, List.of(), monitor, new Unflushed(), (id, tree, parents, raw) -> { });
            assertThat(copied).isEqualTo(1202);
            assertThat(monitor.updates).containsExactly(1000, 202);
        }
    }

    @Test
    void anObjectTooLargeToHoldWholeIsReadThroughItsStream() throws Exception {
        Repository remote = new FileRepository(dir.resolve("remote.git").toFile()) {
            @Override
            public ObjectReader newObjectReader() {
                ObjectReader r = super.newObjectReader();
                r.setStreamFileThreshold(16 << 10);
                return r;
            }
        };
        remote.create(true);
        byte[] large = new byte[64 << 10];
        new Random(17).nextBytes(large);
        ObjectId blob;
        ObjectId tip;
        try (ObjectInserter ins = remote.newObjectInserter()) {
            blob = ins.insert(Constants.OBJ_BLOB, large);
            org.eclipse.jgit.lib.TreeFormatter t = new org.eclipse.jgit.lib.TreeFormatter();
            t.append("large", FileMode.REGULAR_FILE, blob);
            tip = commit(ins, ins.insert(t), null, 1000);
            ins.flush();
        }
        try (ObjectReader r = remote.newObjectReader()) {
            assertThat(r.open(blob).isLarge()).isTrue();
        }
        try (GitRepo local = local("local.git")) {
            assertThat(ObjectCopy.copy(local, remote, tip, List.of(), new Recording(), new Unflushed(), (id, tree, parents, raw) -> { }))
                    .isEqualTo(3);
            assertThat(local.repository().open(blob).getBytes()).isEqualTo(large);
        } finally {
            remote.close();
        }
    }

    private static InMemoryRepository remote() throws IOException {
        return new InMemoryRepository.Builder().setRepositoryDescription(new DfsRepositoryDescription("remote")).build();
    }

    /** A local repository holding H1 packed and H2 loose. */
    private GitRepo local(String name) throws IOException {
        GitRepo local = GitRepo.create(dir.resolve(name), false);
        try (ObjectInserter ins = local.repository().newObjectInserter()) {
            new History(ins, local.repository());
        }
        return local;
    }

    private static long packBytes(GitRepo repo) throws IOException {
        try (var s = java.nio.file.Files.list(repo.gitDir().resolve("objects/pack"))) {
            return s.filter(p -> p.toString().endsWith(".pack")).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    /** Every object {@code tip} reaches and {@code have} does not, by JGit's object walk. */
    private static List<ObjectId> walk(Repository repo, ObjectId tip, ObjectId have) throws IOException {
        List<ObjectId> ids = new ArrayList<>();
        try (ObjectWalk w = new ObjectWalk(repo)) {
            w.markStart(w.parseAny(tip));
            w.markUninteresting(w.parseAny(have));
            for (RevObject o; (o = w.next()) != null; ) {
                ids.add(o.copy());
            }
            for (RevObject o; (o = w.nextObject()) != null; ) {
                ids.add(o.copy());
            }
        }
        return ids;
    }

    private static ObjectId commit(ObjectInserter ins, TreeMap<String, String> files, ObjectId parent, int time)
            throws IOException {
        ObjectId id = commit(ins, tree(ins, files, ""), parent, time);
        ins.flush();
        return id;
    }

    private static ObjectId commit(ObjectInserter ins, ObjectId tree, ObjectId parent, int time) throws IOException {
        CommitBuilder cb = new CommitBuilder();
        cb.setTreeId(tree);
        if (parent != null) {
            cb.setParentId(parent);
        }
        PersonIdent who = new PersonIdent("bob", "bob@example.org", java.time.Instant.ofEpochSecond(time),
                java.time.ZoneOffset.UTC);
        cb.setAuthor(who);
        cb.setCommitter(who);
        cb.setMessage("at " + time + "\n");
        return ins.insert(cb);
    }

    /** The tree of the files under {@code prefix}, entries in git order. */
    private static ObjectId tree(ObjectInserter ins, TreeMap<String, String> files, String prefix) throws IOException {
        Map<String, Boolean> names = new LinkedHashMap<>();
        for (String path : files.keySet()) {
            if (path.startsWith(prefix)) {
                String rest = path.substring(prefix.length());
                int slash = rest.indexOf('/');
                names.putIfAbsent(slash < 0 ? rest : rest.substring(0, slash), slash >= 0);
            }
        }
        List<Map.Entry<String, Boolean>> sorted = new ArrayList<>(names.entrySet());
        sorted.sort((a, b) -> Paths.compare(bytes(a.getKey()), 0, bytes(a.getKey()).length, mode(a.getValue()),
                bytes(b.getKey()), 0, bytes(b.getKey()).length, mode(b.getValue())));
        org.eclipse.jgit.lib.TreeFormatter t = new org.eclipse.jgit.lib.TreeFormatter();
        for (Map.Entry<String, Boolean> e : sorted) {
            String path = prefix + e.getKey();
            t.append(e.getKey(), e.getValue() ? FileMode.TREE : FileMode.REGULAR_FILE, e.getValue()
                    ? tree(ins, files, path + "/")
                    : ins.insert(Constants.OBJ_BLOB, bytes(files.get(path))));
        }
        return ins.insert(t);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static int mode(boolean tree) {
        return tree ? FileMode.TREE.getBits() : FileMode.REGULAR_FILE.getBits();
    }

    /** What a copy reported: each task begun (title and total) and each update. */
    private static final class Recording extends org.eclipse.jgit.lib.EmptyProgressMonitor {
        final List<String> tasks = new ArrayList<>();
        final List<Integer> updates = new ArrayList<>();

        @Override
        public void beginTask(String title, int totalWork) {
            tasks.add(title + " " + totalWork);
        }

        @Override
        public void update(int completed) {
            updates.add(completed);
        }
    }
}
