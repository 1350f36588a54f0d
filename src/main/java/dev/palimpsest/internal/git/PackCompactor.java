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
 * Keeps the number of packs logarithmic in the number of objects: packs are grouped in tiers by
 * object count (tier k holds packs of {@code 8^k} to {@code 8^(k+1) - 1} objects), and whenever a
 * tier holds {@link #MERGE} packs they are rewritten as one pack of a higher tier, their files going
 * back to the {@link FilePool}. Each object is so rewritten about once per tier (O(log n) times over
 * the life of the store), and lookups scan at most {@code MERGE - 1} packs per tier. Tiers from
 * {@link #MAX_TIER} up (packs of 512 objects or more) are not merged here, which bounds the memory a
 * merge needs; {@link BackgroundRepack} folds them into one deltified pack. Entries are
 * copied verbatim. The merged pack is in place before the old ones are retired, so a crash leaves
 * at worst duplicates. Packs with a {@code .keep} file are left alone. Not thread-safe; runs under
 * the writer lock (which also guards {@link GitRepo#unretired()}).
 */
public final class PackCompactor {
    public static final int MERGE = 8;
    /** Tiers from here up are left to {@link BackgroundRepack}, which deltifies. */
    public static final int MAX_TIER = 3;

    private PackCompactor() {}

    /**
     * Merges small packs while there are too many; returns how many packs were retired. A merged
     * group is retired only while no background merge (of any process) holds the repack lock: such a
     * merge reads every pack it listed when it started (JGit's pack writer asks each for the objects
     * it holds), and would find a deleted one corrupt. Otherwise the group waits in {@link
     * GitRepo#unretired()}, left out of the tiers, and is retired by a later compaction.
     */
    public static int compact(GitRepo repo, FilePool pool, boolean fsync) throws IOException {
        int retired = retireWaiting(repo);
        while (true) {
            List<Pack> packs = new ArrayList<>();
            java.util.Set<Path> waiting = new java.util.HashSet<>();
            for (Pack p : repo.unretired()) {
                waiting.add(p.getPackFile().toPath());
            }
            for (Pack p : ((FileRepository) repo.repository()).getObjectDatabase().getPacks()) {
                Path file = p.getPackFile().toPath();
                if (Files.exists(file) && !Files.exists(sibling(file, ".keep")) && !waiting.contains(file)) {
                    packs.add(p);
                }
            }
            java.util.TreeMap<Integer, List<Pack>> tiers = new java.util.TreeMap<>();
            for (Pack p : packs) {
                tiers.computeIfAbsent(tier(objectCount(p)), k -> new ArrayList<>()).add(p);
            }
            List<Pack> group = null;
            for (List<Pack> t : tiers.headMap(MAX_TIER).values()) {
                if (t.size() >= MERGE) {
                    group = t;
                    break;
                }
            }
            if (group == null) {
                return retired;
            }
            Path kept;
            try (PackObjectWriter w = new PackObjectWriter(repo, pool, fsync, Deflater.BEST_SPEED);
                    ObjectReader reader = repo.repository().newObjectReader()) {
                for (Pack p : group) {
                    copy(p, w, reader);
                }
                kept = w.flushPack();
            }
            List<Pack> merged = new ArrayList<>();
            for (Pack p : group) {
                if (!p.getPackFile().toPath().equals(kept)) {
                    merged.add(p);
                }
            }
            repo.unretired().addAll(merged);
            retired += retireWaiting(repo);
        }
    }

    /** Retires the merged packs waiting in {@code repo} unless a background merge runs; returns how many. */
    private static int retireWaiting(GitRepo repo) throws IOException {
        List<Pack> waiting = repo.unretired();
        if (waiting.isEmpty()) {
            return 0;
        }
        IOException[] failed = new IOException[1];
        boolean idle = repo.repack().whileIdle(() -> {
            try {
                retire(waiting, null, null);
            } catch (IOException e) {
                failed[0] = e;
            }
        });
        if (failed[0] != null) {
            throw failed[0];
        }
        if (!idle) {
            return 0;
        }
        int n = waiting.size();
        waiting.clear();
        return n;
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

    /** The packs of the lowest large tier (at or above {@link #MAX_TIER}) holding MERGE packs, or null. */
    static List<Pack> fullLargeTier(GitRepo repo) {
        java.util.TreeMap<Integer, List<Pack>> tiers = new java.util.TreeMap<>();
        for (Pack p : ((FileRepository) repo.repository()).getObjectDatabase().getPacks()) {
            Path file = p.getPackFile().toPath();
            if (Files.exists(file) && !Files.exists(sibling(file, ".keep"))) {
                int t = tier(objectCount(p));
                if (t >= MAX_TIER) {
                    tiers.computeIfAbsent(t, k -> new ArrayList<>()).add(p);
                }
            }
        }
        for (List<Pack> t : tiers.values()) {
            if (t.size() >= MERGE) {
                return t;
            }
        }
        return null;
    }

    /**
     * Closes the merged packs and deletes their files; {@code kept} is never retired. The inodes are
     * not reused: a reader (git maps pack files into memory) may still be reading them, and
     * emptying a mapped file would crash it; deleting only removes the names. The packs are closed
     * together: closing one purges the whole window cache table, a scan that costs the same for one
     * pack as for the group.
     */
    static void retire(List<Pack> group, FilePool pool, Path kept) throws IOException {
        java.util.Set<Pack> closing = new java.util.HashSet<>();
        for (Pack p : group) {
            if (kept == null || !p.getPackFile().toPath().equals(kept)) {
                closing.add(p);
            }
        }
        Pack.close(closing);
        for (Pack p : closing) {
            Path file = p.getPackFile().toPath();
            // the .pack first: a reader that lists packs then sees none, never a pack without its index
            for (String ext : new String[] {".pack", ".idx", ".rev", ".bitmap"}) {
                Path f = sibling(file, ext);
                Files.deleteIfExists(f);
            }
        }
    }

    static int tier(long objects) {
        int t = 0;
        while (objects >= MERGE) {
            objects /= MERGE;
            t++;
        }
        return t;
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
