package dev.palimpsest.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The raw-bytes tree diff and lookup agree with JGit's TreeWalk on random pairs of trees. */
@ExtendWith(Seeds.class)
class TreeBytesTest {
    @TempDir
    Path dir;

    private static final String[] NAMES = {"a", "a.b", "a-b", "a0", "ab", "b", "facts", "facts.yaml", "keys", "z"};

    @Test
    void diffAgreesWithTreeWalkOnRandomTrees(Seed seed) throws Exception {
        Random rnd = seed.random();
        try (Repository repo = new FileRepository(dir.resolve("r.git").toFile())) {
            repo.create(true);
            try (ObjectInserter ins = repo.newObjectInserter(); ObjectReader reader = repo.newObjectReader();
                    Reading reading = new Reading(repo.newObjectReader())) {
                for (int round = 0; round < 400; round++) {
                    TreeMap<String, String> files = randomFiles(rnd);
                    TreeMap<String, String> other = mutate(rnd, files);
                    ObjectId a = write(ins, files, "");
                    ObjectId b = write(ins, other, "");
                    ins.flush();
                    ObjectId from = round % 10 == 0 ? null : a;
                    assertThat(reading.diff(from, b)).as("round " + round).isEqualTo(treeWalk(reader, from, b));
                    for (String path : other.keySet()) {
                        assertThat(reading.blobAt(b, path)).isEqualTo(blobId(ins, other.get(path)));
                    }
                    assertThat(reading.blobAt(b, "missing/path")).isNull();
                }
            }
        }
    }

    @Test
    void aFolderReplacedByAFileOfTheSameNameIsReportedInGitOrderFileFirst() throws Exception {
        try (Repository repo = new FileRepository(dir.resolve("d.git").toFile())) {
            repo.create(true);
            try (ObjectInserter ins = repo.newObjectInserter(); ObjectReader reader = repo.newObjectReader();
                    Reading reading = new Reading(repo.newObjectReader())) {
                TreeMap<String, String> folder = new TreeMap<>();
                folder.put("a/x", "content 1");
                TreeMap<String, String> file = new TreeMap<>();
                file.put("a", "content 2");
                file.put("a-b", "content 3");
                ObjectId a = write(ins, folder, "");
                ObjectId b = write(ins, file, "");
                ins.flush();
                List<Change> forward = reading.diff(a, b);
                assertThat(forward).extracting(Change::path).containsExactly("a", "a-b", "a/x");
                assertThat(forward).isEqualTo(treeWalk(reader, a, b));
                assertThat(reading.diff(b, a)).extracting(Change::path).containsExactly("a", "a-b", "a/x");
                assertThat(reading.diff(b, a)).isEqualTo(treeWalk(reader, b, a));
            }
        }
    }

    @Test
    void anUnchangedEntryRightBeforeAFileReplacedByAFolderIsNotReported() throws Exception {
        try (Repository repo = new FileRepository(dir.resolve("k.git").toFile())) {
            repo.create(true);
            try (ObjectInserter ins = repo.newObjectInserter(); ObjectReader reader = repo.newObjectReader();
                    Reading reading = new Reading(repo.newObjectReader())) {
                TreeMap<String, String> file = new TreeMap<>();
                file.put("k", "content 1");
                file.put("y", "content 2");
                TreeMap<String, String> folder = new TreeMap<>();
                folder.put("k", "content 1");
                folder.put("y/x", "content 2");
                ObjectId a = write(ins, file, "");
                ObjectId b = write(ins, folder, "");
                ins.flush();
                assertThat(reading.diff(a, b)).extracting(Change::path).containsExactly("y", "y/x");
                assertThat(reading.diff(a, b)).isEqualTo(treeWalk(reader, a, b));
                assertThat(reading.diff(b, a)).extracting(Change::path).containsExactly("y", "y/x");
            }
        }
    }

    private static List<Change> treeWalk(ObjectReader reader, ObjectId a, ObjectId b) throws IOException {
        List<Change> out = new ArrayList<>();
        try (TreeWalk tw = new TreeWalk(reader)) {
            if (a == null) {
                tw.addTree(new EmptyTreeIterator());
            } else {
                tw.addTree(a);
            }
            tw.addTree(b);
            tw.setRecursive(true);
            tw.setFilter(TreeFilter.ANY_DIFF);
            while (tw.next()) {
                int ma = tw.getRawMode(0);
                int mb = tw.getRawMode(1);
                out.add(new Change(tw.getPathString(), ma == 0 ? null : tw.getObjectId(0),
                        mb == 0 ? null : tw.getObjectId(1), mb));
            }
        }
        return out;
    }

    private static TreeMap<String, String> randomFiles(Random rnd) {
        TreeMap<String, String> files = new TreeMap<>();
        int n = 1 + rnd.nextInt(12);
        for (int i = 0; i < n; i++) {
            StringBuilder p = new StringBuilder(NAMES[rnd.nextInt(NAMES.length)]);
            int depth = rnd.nextInt(3);
            for (int d = 0; d < depth; d++) {
                p.append('/').append(NAMES[rnd.nextInt(NAMES.length)]);
            }
            files.put(p.toString(), "content " + rnd.nextInt(4));
        }
        return prefixFree(files);
    }

    private static TreeMap<String, String> mutate(Random rnd, TreeMap<String, String> files) {
        TreeMap<String, String> out = new TreeMap<>(files);
        int edits = rnd.nextInt(4);
        List<String> keys = new ArrayList<>(files.keySet());
        for (int e = 0; e < edits && !keys.isEmpty(); e++) {
            switch (rnd.nextInt(3)) {
                case 0:
                    out.remove(keys.get(rnd.nextInt(keys.size())));
                    break;
                case 1:
                    out.put(keys.get(rnd.nextInt(keys.size())), "changed " + rnd.nextInt(3));
                    break;
                default:
                    out.putAll(randomFiles(rnd));
            }
        }
        return prefixFree(out);
    }

    /** Drops files whose path is also a folder of another file (a path cannot be both). */
    private static TreeMap<String, String> prefixFree(TreeMap<String, String> files) {
        TreeMap<String, String> out = new TreeMap<>();
        for (String p : files.keySet()) {
            boolean folder = files.keySet().stream().anyMatch(q -> q.startsWith(p + "/"));
            boolean underFile = files.keySet().stream().anyMatch(q -> p.startsWith(q + "/"));
            if (!folder && !underFile) {
                out.put(p, files.get(p));
            }
        }
        return out;
    }

    private static ObjectId blobId(ObjectInserter ins, String content) {
        return ins.idFor(Constants.OBJ_BLOB, content.getBytes(StandardCharsets.UTF_8));
    }

    private static ObjectId write(ObjectInserter ins, TreeMap<String, String> files, String prefix) throws IOException {
        TreeMap<String, Object> entries = new TreeMap<>((x, y) -> compareEntries(x, y, files, prefix));
        for (String p : files.keySet()) {
            if (!p.startsWith(prefix)) {
                continue;
            }
            String rest = p.substring(prefix.length());
            int slash = rest.indexOf('/');
            entries.put(slash < 0 ? rest : rest.substring(0, slash), slash < 0 ? p : null);
        }
        org.eclipse.jgit.lib.TreeFormatter f = new org.eclipse.jgit.lib.TreeFormatter();
        for (var e : entries.entrySet()) {
            if (e.getValue() != null) {
                f.append(e.getKey(), FileMode.REGULAR_FILE,
                        ins.insert(Constants.OBJ_BLOB, files.get((String) e.getValue()).getBytes(StandardCharsets.UTF_8)));
            } else {
                f.append(e.getKey(), FileMode.TREE, write(ins, files, prefix + e.getKey() + "/"));
            }
        }
        return ins.insert(f);
    }

    /** Git's order: a folder's name compares as if followed by '/'. */
    private static int compareEntries(String x, String y, TreeMap<String, String> files, String prefix) {
        String kx = files.containsKey(prefix + x) ? x : x + "/";
        String ky = files.containsKey(prefix + y) ? y : y + "/";
        return kx.compareTo(ky);
    }
}
