package dev.palimpsest.internal.git;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.zip.Deflater;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.internal.storage.file.Pack;
import org.eclipse.jgit.internal.storage.file.PackIndex;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * Keeps the number of packs bounded: when more than {@link #MAX_PACKS} exist, the
 * {@link #MERGE} smallest are rewritten as one pack, and their files go back to the
 * {@link FilePool}. Merging by size is geometric, so each object is rewritten O(log n) times over
 * the life of the store and object lookups never scan more than a bounded number of indexes. The
 * merged pack is in place before the old ones are retired, so a crash leaves at worst duplicates.
 * Packs with a {@code .keep} file are left alone. Not thread-safe; runs under the writer lock.
 */
public final class PackCompactor {
    public static final int MAX_PACKS = 24;
    public static final int MERGE = 12;

    private PackCompactor() {}

    /** Merges small packs while there are too many; returns how many packs were retired. */
    public static int compact(GitRepo repo, FilePool pool, boolean fsync) throws IOException {
        int retired = 0;
        while (true) {
            List<Pack> packs = new ArrayList<>();
            for (Pack p : ((FileRepository) repo.repository()).getObjectDatabase().getPacks()) {
                Path file = p.getPackFile().toPath();
                if (Files.exists(file) && !Files.exists(sibling(file, ".keep"))) {
                    packs.add(p);
                }
            }
            if (packs.size() <= MAX_PACKS) {
                return retired;
            }
            packs.sort(Comparator.comparingLong(PackCompactor::objectCount));
            List<Pack> group = packs.subList(0, MERGE);
            try (PackObjectWriter w = new PackObjectWriter(repo, pool, fsync, Deflater.BEST_SPEED);
                    ObjectReader reader = repo.repository().newObjectReader()) {
                for (Pack p : group) {
                    copy(p, w, reader);
                }
                w.flushPack();
            }
            for (Pack p : group) {
                Path file = p.getPackFile().toPath();
                p.close();
                for (String ext : new String[] {".idx", ".rev", ".bitmap", ".pack"}) {
                    Path f = sibling(file, ext);
                    if (Files.exists(f)) {
                        pool.recycle(f);
                    }
                }
                retired++;
            }
        }
    }

    /** Copies a pack's whole-object entries verbatim; delta entries are inflated and re-deflated. */
    private static void copy(Pack p, PackObjectWriter w, ObjectReader reader) throws IOException {
        byte[] bytes = Files.readAllBytes(p.getPackFile().toPath());
        List<long[]> entries = new ArrayList<>();
        List<ObjectId> ids = new ArrayList<>();
        for (PackIndex.MutableEntry e : p) {
            entries.add(new long[] {e.getOffset(), ids.size()});
            ids.add(e.toObjectId());
        }
        entries.sort(Comparator.comparingLong(a -> a[0]));
        for (int i = 0; i < entries.size(); i++) {
            int start = (int) entries.get(i)[0];
            int end = i + 1 < entries.size() ? (int) entries.get(i + 1)[0] : bytes.length - 20;
            ObjectId id = ids.get((int) entries.get(i)[1]);
            if (w.contains(id)) {
                continue;
            }
            int type = (bytes[start] >> 4) & 7;
            if (type >= 1 && type <= 4) {
                w.appendRaw(id, type, bytes, start, end - start);
            } else {
                ObjectLoader l = reader.open(id);
                byte[] data = l.getCachedBytes(Integer.MAX_VALUE);
                w.append(id, l.getType(), data, 0, data.length);
            }
        }
    }

    private static long objectCount(Pack p) {
        try {
            return p.getIndex().getObjectCount();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    private static Path sibling(Path packFile, String ext) {
        String name = packFile.getFileName().toString();
        return packFile.resolveSibling(name.substring(0, name.length() - ".pack".length()) + ext);
    }
}
