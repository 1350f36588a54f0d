package dev.palimpsest.internal.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.eclipse.jgit.internal.storage.dfs.DfsRepositoryDescription;
import org.eclipse.jgit.internal.storage.dfs.InMemoryRepository;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.AndTreeFilter;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(Seeds.class)
class TreeDiffTest {
    private static final List<String> FOLDERS = List.of("facts", "sources");
    private final InMemoryRepository repo = new InMemoryRepository(new DfsRepositoryDescription("t"));

    /** A file tree as nested maps: name to a blob's content (String), a symlink (Link) or a folder (Map). */
    private record Link(String target) {}

    @Test
    void agreesWithJGitsTreeWalkOnRandomHistories(Seed seed) throws IOException {
        Random rnd = seed.random();
        for (int history = 0; history < 30; history++) {
            Map<String, Object> files = new TreeMap<>();
            ObjectId previous = null;
            try (ObjectInserter ins = repo.newObjectInserter(); ObjectReader reader = repo.newObjectReader()) {
                TreeDiff diff = new TreeDiff(reader, FOLDERS);
                for (int step = 0; step < 12; step++) {
                    mutate(files, rnd, 1 + rnd.nextInt(step == 0 ? 30 : 6));
                    ObjectId tree = write(ins, files);
                    ins.flush();
                    Map<String, ObjectId> got = new LinkedHashMap<>();
                    diff.diff(previous, tree, (p, b) -> assertThat(got.put(p, b)).as("reported twice: " + p).isNull());
                    assertThat(got).as("history %d step %d", history, step).isEqualTo(treeWalk(reader, previous, tree));
                    assertThat(new ArrayList<>(got.keySet())).as("in tree order")
                            .isEqualTo(new ArrayList<>(treeWalk(reader, previous, tree).keySet()));
                    previous = tree;
                }
            }
        }
    }

    @Test
    void aTreeReplacedByAFileOfTheSameNameReportsBoth() throws IOException {
        try (ObjectInserter ins = repo.newObjectInserter(); ObjectReader reader = repo.newObjectReader()) {
            Map<String, Object> before = new TreeMap<>(Map.of("facts", new TreeMap<>(Map.of("ab",
                    new TreeMap<>(Map.of("x.yaml", "one")), "ab.yaml", "two"))));
            Map<String, Object> after = new TreeMap<>(Map.of("facts", new TreeMap<>(Map.of("ab", "now a file",
                    "ab.yaml", "two"))));
            ObjectId a = write(ins, before);
            ObjectId b = write(ins, after);
            ins.flush();
            Map<String, ObjectId> got = new LinkedHashMap<>();
            new TreeDiff(reader, FOLDERS).diff(a, b, got::put);
            assertThat(got).containsOnlyKeys("facts/ab", "facts/ab/x.yaml");
            assertThat(got.get("facts/ab/x.yaml")).isNull();
            assertThat(got).isEqualTo(treeWalk(reader, a, b));
        }
    }

    @Test
    void aDamagedTreeIsAnError() throws IOException {
        try (ObjectInserter ins = repo.newObjectInserter(); ObjectReader reader = repo.newObjectReader()) {
            ObjectId bad = ins.insert(Constants.OBJ_TREE, "40000 facts\0short".getBytes(StandardCharsets.ISO_8859_1));
            ObjectId badMode = ins.insert(Constants.OBJ_TREE, ("4x000 facts\0" + "a".repeat(20))
                    .getBytes(StandardCharsets.ISO_8859_1));
            ins.flush();
            assertThatThrownBy(() -> new TreeDiff(reader, FOLDERS).diff(null, bad, (p, b) -> {}))
                    .isInstanceOf(IOException.class).hasMessageContaining("runs past its end");
            assertThatThrownBy(() -> new TreeDiff(reader, FOLDERS).diff(null, badMode, (p, b) -> {}))
                    .isInstanceOf(IOException.class).hasMessageContaining("not octal");
        }
    }

    private static void mutate(Map<String, Object> root, Random rnd, int changes) {
        String[] tops = {"facts", "sources", "keys", "fact", "factsx"};
        for (int k = 0; k < changes; k++) {
            String top = tops[rnd.nextInt(tops.length)];
            String a = Integer.toHexString(rnd.nextInt(4));
            String b = Integer.toHexString(rnd.nextInt(3));
            String name = "f" + rnd.nextInt(5) + (rnd.nextInt(6) == 0 ? "" : ".yaml");
            List<String> path = rnd.nextInt(8) == 0 ? List.of(top, a + ".yaml") : rnd.nextInt(8) == 0 ? List.of(top)
                    : List.of(top, a, b, name);
            Object leaf = switch (rnd.nextInt(6)) {
                case 0 -> new Link("t" + rnd.nextInt(3));
                case 1 -> null;
                default -> "c" + rnd.nextInt(4);
            };
            put(root, path, 0, leaf);
        }
    }

    @SuppressWarnings("unchecked")
    private static void put(Map<String, Object> dir, List<String> path, int i, Object leaf) {
        String name = path.get(i);
        if (i == path.size() - 1) {
            if (leaf == null) {
                dir.remove(name);
            } else {
                dir.put(name, leaf);
            }
            return;
        }
        Object sub = dir.get(name);
        if (!(sub instanceof Map)) {
            sub = new TreeMap<String, Object>();
            dir.put(name, sub);
        }
        put((Map<String, Object>) sub, path, i + 1, leaf);
        if (((Map<String, Object>) sub).isEmpty()) {
            dir.remove(name);
        }
    }

    @SuppressWarnings("unchecked")
    private static ObjectId write(ObjectInserter ins, Map<String, Object> dir) throws IOException {
        List<Map.Entry<String, Object>> entries = new ArrayList<>(dir.entrySet());
        entries.sort((x, y) -> gitOrder(x, y));
        TreeFormatter f = new TreeFormatter();
        for (Map.Entry<String, Object> e : entries) {
            Object v = e.getValue();
            if (v instanceof Map) {
                f.append(e.getKey(), FileMode.TREE, write(ins, (Map<String, Object>) v));
            } else if (v instanceof Link l) {
                f.append(e.getKey(), FileMode.SYMLINK, ins.insert(Constants.OBJ_BLOB, l.target().getBytes()));
            } else {
                String s = (String) v;
                FileMode mode = s.endsWith("3") ? FileMode.EXECUTABLE_FILE : FileMode.REGULAR_FILE;
                f.append(e.getKey(), mode, ins.insert(Constants.OBJ_BLOB, s.getBytes()));
            }
        }
        return ins.insert(f);
    }

    private static int gitOrder(Map.Entry<String, Object> x, Map.Entry<String, Object> y) {
        String a = x.getKey() + (x.getValue() instanceof Map ? "/" : "");
        String b = y.getKey() + (y.getValue() instanceof Map ? "/" : "");
        return a.compareTo(b);
    }

    private static Map<String, ObjectId> treeWalk(ObjectReader reader, ObjectId a, ObjectId b) throws IOException {
        Map<String, ObjectId> out = new LinkedHashMap<>();
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.setRecursive(true);
            tw.setFilter(AndTreeFilter.create(PathFilterGroup.createFromStrings(FOLDERS), TreeFilter.ANY_DIFF));
            if (a == null) {
                tw.addTree(new EmptyTreeIterator());
            } else {
                tw.addTree(a);
            }
            tw.addTree(b);
            while (tw.next()) {
                boolean file = (tw.getRawMode(1) & FileMode.TYPE_MASK) == FileMode.TYPE_FILE;
                out.put(tw.getPathString(), file ? tw.getObjectId(1) : null);
            }
        }
        return out;
    }
}
