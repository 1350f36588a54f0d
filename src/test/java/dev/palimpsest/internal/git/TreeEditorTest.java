package dev.palimpsest.internal.git;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectChecker;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tree editor against two oracles: a map of paths (the model) and JGit's index-built tree of
 * the same files, which must have the same id; every tree it writes passes JGit's object checker.
 */
@ExtendWith(Seeds.class)
class TreeEditorTest {
    /** Names that are prefixes of each other and sort around '/' (0x2f): '-' and '.' sort before it, '0' after. */
    private static final String[] NAMES = {"a", "a.b", "a-c", "a0", "ab", "b", "b.yaml", "z", "zz.yaml"};

    @TempDir
    Path dir;

    @Test
    void randomEditsGiveTheTreeThatTheIndexWouldWrite(Seed seed) throws Exception {
        Random rnd = seed.random();
        try (FileRepository repo = new FileRepository(dir.resolve("t.git").toFile())) {
            repo.create(true);
            try (ObjectInserter ins = repo.newObjectInserter(); ObjectReader reader = repo.newObjectReader()) {
                Map<String, ObjectId> model = new TreeMap<>();
                ObjectId tree = null;
                for (int round = 0; round < 300; round++) {
                    Map<String, ObjectId> edits = new HashMap<>();
                    for (int n = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 60 : 6); n > 0; n--) {
                        String path = model.isEmpty() || rnd.nextInt(3) > 0 ? randomPath(rnd) : pick(rnd, model);
                        boolean delete = rnd.nextInt(3) == 0;
                        if (java.util.stream.Stream.concat(model.keySet().stream(), edits.keySet().stream())
                                .anyMatch(p -> p.startsWith(path + "/") || path.startsWith(p + "/"))) {
                            continue;
                        }
                        ObjectId blob = delete ? null : ins.insert(Constants.OBJ_BLOB,
                                ("v" + rnd.nextInt(5)).getBytes(StandardCharsets.UTF_8));
                        edits.put(path, blob);
                    }
                    edits.forEach((p, b) -> {
                        if (b == null) {
                            model.remove(p);
                        } else {
                            model.put(p, b);
                        }
                    });
                    tree = TreeEditor.apply(reader, ins, tree, edits);
                    assertThat(files(reader, tree)).as("round " + round).isEqualTo(model);
                    assertThat(tree).as("round " + round).isEqualTo(indexTree(ins, model));
                    checkEveryTree(reader, tree);
                }
            }
        }
    }

    @Test
    void deletingEveryFileOfAFolderDropsTheFolder() throws Exception {
        try (FileRepository repo = new FileRepository(dir.resolve("d.git").toFile())) {
            repo.create(true);
            try (ObjectInserter ins = repo.newObjectInserter(); ObjectReader reader = repo.newObjectReader()) {
                ObjectId blob = ins.insert(Constants.OBJ_BLOB, new byte[] {1});
                ObjectId t = TreeEditor.apply(reader, ins, null, Map.of("x/y/f", blob, "k", blob));
                HashMap<String, ObjectId> gone = new HashMap<>();
                gone.put("x/y/f", null);
                ObjectId after = TreeEditor.apply(reader, ins, t, gone);
                assertThat(after).isEqualTo(TreeEditor.apply(reader, ins, null, Map.of("k", blob)));
                gone.put("k", null);
                assertThat(TreeEditor.apply(reader, ins, t, gone)).isEqualTo(ObjectId.fromString(
                        "4b825dc642cb6eb9a060e54bf8d69288fbee4904"));
            }
        }
    }

    private static String randomPath(Random rnd) {
        StringBuilder b = new StringBuilder();
        for (int depth = 1 + rnd.nextInt(3); depth > 0; depth--) {
            b.append(NAMES[rnd.nextInt(NAMES.length)]).append('/');
        }
        return b.substring(0, b.length() - 1);
    }

    private static String pick(Random rnd, Map<String, ObjectId> model) {
        return model.keySet().stream().skip(rnd.nextInt(model.size())).findFirst().orElseThrow();
    }

    private static Map<String, ObjectId> files(ObjectReader reader, ObjectId tree) throws Exception {
        Map<String, ObjectId> out = new TreeMap<>();
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.addTree(tree);
            tw.setRecursive(true);
            while (tw.next()) {
                assertThat(tw.getFileMode(0)).isEqualTo(FileMode.REGULAR_FILE);
                out.put(tw.getPathString(), tw.getObjectId(0));
            }
        }
        return out;
    }

    private static ObjectId indexTree(ObjectInserter ins, Map<String, ObjectId> model) throws Exception {
        DirCache dc = DirCache.newInCore();
        DirCacheBuilder b = dc.builder();
        model.forEach((path, blob) -> {
            DirCacheEntry e = new DirCacheEntry(path);
            e.setFileMode(FileMode.REGULAR_FILE);
            e.setObjectId(blob);
            b.add(e);
        });
        b.finish();
        return dc.writeTree(ins);
    }

    private static void checkEveryTree(ObjectReader reader, ObjectId tree) throws Exception {
        byte[] raw = reader.open(tree, Constants.OBJ_TREE).getCachedBytes();
        new ObjectChecker().checkTree(raw);
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.addTree(tree);
            while (tw.next()) {
                if (tw.isSubtree()) {
                    assertThat(reader.open(tw.getObjectId(0)).getSize()).as(tw.getPathString() + " is not empty")
                            .isPositive();
                    checkEveryTree(reader, tw.getObjectId(0));
                }
            }
        }
    }
}
