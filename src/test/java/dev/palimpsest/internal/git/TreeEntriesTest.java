package dev.palimpsest.internal.git;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.TreeFormatter;
import org.eclipse.jgit.util.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tree order over raw tree bytes agrees with JGit's ({@link Paths#compare}, trees written by
 * {@link TreeFormatter}) on names built to collide: shared prefixes, a folder and a file of the same
 * name, names ending where another goes on with bytes sorting around {@code /}, bytes above 0x7f.
 */
@ExtendWith(Seeds.class)
class TreeEntriesTest {
    /** Bytes sorting before, at and after {@code /} (0x2f) and a byte whose sign matters. */
    private static final byte[] ALPHABET = {'a', 'b', '-', '.', '0', (byte) 0xc3};

    @Test
    void namesCompareExactlyAsJGitComparesThem(Seed seed) {
        Random r = seed.random();
        for (int n = 0; n < 5000; n++) {
            byte[] a = name(r);
            byte[] b = name(r);
            boolean aTree = r.nextBoolean();
            boolean bTree = r.nextBoolean();
            Embedded ea = embed(r, a);
            Embedded eb = embed(r, b);
            int expected = Paths.compare(a, 0, a.length, mode(aTree), b, 0, b.length, mode(bTree));
            assertThat(TreeEntries.compare(ea.bytes, ea.start, ea.end, aTree, eb.bytes, eb.start, eb.end, bTree))
                    .as("%s %s vs %s %s", show(a), aTree, show(b), bTree).isEqualTo(expected);
        }
    }

    @Test
    void aFolderSortsAsItsNameFollowedBySlash() {
        assertThat(compare("a", true, "a.b", false)).isPositive();
        assertThat(compare("a", true, "a0", false)).isNegative();
        assertThat(compare("a", false, "a-", false)).isNegative();
        assertThat(compare("a", true, "a", false)).isEqualTo('/');
        assertThat(compare("a", false, "a", true)).isEqualTo(-'/');
        assertThat(compare("a", true, "a", true)).isZero();
        assertThat(compare("ab", false, "a", false)).isEqualTo('b');
        assertThat(compare("ab", false, "a", true)).isEqualTo('b' - '/');
    }

    @Test
    void seekStopsAtTheFirstEntryNotSortingBeforeTheName(Seed seed) {
        Random r = seed.random();
        for (int n = 0; n < 500; n++) {
            Tree base = tree(r, r.nextInt(8));
            for (int q = 0; q < 20; q++) {
                byte[] name = name(r);
                boolean isTree = r.nextBoolean();
                Embedded e = embed(r, name);
                int from = r.nextInt(base.offsets.size());
                int expected = from;
                while (expected < base.entries.size() && Paths.compare(base.entries.get(expected).name, 0,
                        base.entries.get(expected).name.length, base.entries.get(expected).mode.getBits(), name, 0,
                        name.length, mode(isTree)) < 0) {
                    expected++;
                }
                assertThat(TreeEntries.seek(base.bytes, base.offsets.get(from), e.bytes, e.start, e.end, isTree))
                        .as("%s %s in %s from entry %d", show(name), isTree, base, from)
                        .isEqualTo(base.offsets.get(expected));
            }
        }
    }

    @Test
    void anEntryIsTheSameOnlyWhenModeNameAndIdAreAllEqual(Seed seed) {
        Random r = seed.random();
        for (int n = 0; n < 500; n++) {
            Tree base = tree(r, 1 + r.nextInt(6));
            Tree other = variant(r, base);
            for (int i = 0; i < other.entries.size(); i++) {
                Entry o = other.entries.get(i);
                for (int j = 0; j <= base.entries.size(); j++) {
                    boolean expected = j < base.entries.size() && base.entries.get(j).equals(o);
                    assertThat(TreeEntries.sameEntry(base.bytes, base.offsets.get(j), other.bytes, other.offsets.get(i),
                            other.offsets.get(i + 1))).as("%s at %d of %s", o, j, base).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void theSubtreeAtAnEntryIsItsIdOnlyWhenItIsAFolderOfThatName(Seed seed) {
        Random r = seed.random();
        for (int n = 0; n < 500; n++) {
            Tree base = tree(r, 1 + r.nextInt(6));
            for (int q = 0; q < 10; q++) {
                byte[] name = r.nextInt(3) == 0 ? base.entries.get(r.nextInt(base.entries.size())).name : name(r);
                Embedded e = embed(r, name);
                for (int j = 0; j <= base.entries.size(); j++) {
                    Entry b = j < base.entries.size() ? base.entries.get(j) : null;
                    ObjectId expected = b != null && b.mode == FileMode.TREE && Arrays.equals(b.name, name) ? b.id : null;
                    assertThat(TreeEntries.subtreeAt(base.bytes, base.offsets.get(j), e.bytes, e.start, e.end))
                            .as("%s at %d of %s", show(name), j, base).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void aNameLongerThanWhatFollowsTheLastFolderIsNotItsSubtree() {
        TreeFormatter f = new TreeFormatter();
        f.append("a", FileMode.TREE, id(1));
        byte[] base = f.toByteArray();
        int bn = "40000 ".length();
        byte[] exact = new byte[base.length - bn];
        Arrays.fill(exact, (byte) 'a');
        assertThat(TreeEntries.subtreeAt(base, 0, exact, 0, exact.length)).isNull();
        assertThat(TreeEntries.subtreeAt(base, 0, exact, 0, 1)).isEqualTo(id(1));
    }

    private static int compare(String a, boolean aTree, String b, boolean bTree) {
        byte[] x = a.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] y = b.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return TreeEntries.compare(x, 0, x.length, aTree, y, 0, y.length, bTree);
    }

    private static int mode(boolean tree) {
        return tree ? FileMode.TREE.getBits() : FileMode.REGULAR_FILE.getBits();
    }

    /** One to three bytes of the alphabet. */
    private static byte[] name(Random r) {
        byte[] n = new byte[1 + r.nextInt(3)];
        for (int i = 0; i < n.length; i++) {
            n[i] = ALPHABET[r.nextInt(ALPHABET.length)];
        }
        return n;
    }

    private record Embedded(byte[] bytes, int start, int end) {}

    /** {@code name} at a random offset of a larger array, between random bytes. */
    private static Embedded embed(Random r, byte[] name) {
        int before = r.nextInt(4);
        byte[] b = new byte[before + name.length + 1 + r.nextInt(3)];
        for (int i = 0; i < b.length; i++) {
            b[i] = ALPHABET[r.nextInt(ALPHABET.length)];
        }
        System.arraycopy(name, 0, b, before, name.length);
        return new Embedded(b, before, before + name.length);
    }

    private record Entry(byte[] name, FileMode mode, ObjectId id) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Entry e && Arrays.equals(name, e.name) && mode == e.mode && id.equals(e.id);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(name);
        }

        @Override
        public String toString() {
            return mode.toString() + " " + show(name) + " " + id.name().substring(0, 4);
        }
    }

    /** A tree's entries in git order, its bytes as TreeFormatter writes them, and each entry's offset (and the end). */
    private record Tree(List<Entry> entries, byte[] bytes, List<Integer> offsets) {
        @Override
        public String toString() {
            return entries.toString();
        }
    }

    private static Tree tree(Random r, int size) {
        TreeSet<String> names = new TreeSet<>();
        List<Entry> entries = new ArrayList<>();
        while (entries.size() < size) {
            byte[] name = name(r);
            if (names.add(new String(name, java.nio.charset.StandardCharsets.ISO_8859_1))) {
                entries.add(new Entry(name, r.nextBoolean() ? FileMode.TREE : FileMode.REGULAR_FILE, id(r.nextInt(3))));
            }
        }
        return tree(entries);
    }

    private static Tree tree(List<Entry> entries) {
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort((a, b) -> Paths.compare(a.name, 0, a.name.length, a.mode.getBits(), b.name, 0, b.name.length,
                b.mode.getBits()));
        TreeFormatter f = new TreeFormatter();
        List<Integer> offsets = new ArrayList<>();
        int at = 0;
        for (Entry e : sorted) {
            offsets.add(at);
            f.append(e.name, 0, e.name.length, e.mode, e.id);
            at += Integer.toOctalString(e.mode.getBits()).length() + 1 + e.name.length + 1 + 20;
        }
        offsets.add(at);
        byte[] bytes = f.toByteArray();
        assertThat(bytes).hasSize(at);
        return new Tree(sorted, bytes, offsets);
    }

    /** {@code base} with some entries kept, some given another id or mode, and some new ones. */
    private static Tree variant(Random r, Tree base) {
        List<Entry> entries = new ArrayList<>();
        TreeSet<String> names = new TreeSet<>();
        for (Entry e : base.entries) {
            int k = r.nextInt(4);
            Entry v = k == 0 ? e : k == 1 ? new Entry(e.name, e.mode, id(3 + r.nextInt(2)))
                    : k == 2 ? new Entry(e.name, e.mode == FileMode.TREE ? FileMode.REGULAR_FILE : FileMode.TREE, e.id) : null;
            if (v != null) {
                entries.add(v);
                names.add(new String(v.name, java.nio.charset.StandardCharsets.ISO_8859_1));
            }
        }
        for (int i = r.nextInt(3); i > 0; i--) {
            byte[] name = name(r);
            if (names.add(new String(name, java.nio.charset.StandardCharsets.ISO_8859_1))) {
                entries.add(new Entry(name, r.nextBoolean() ? FileMode.TREE : FileMode.REGULAR_FILE, id(r.nextInt(3))));
            }
        }
        return tree(entries);
    }

    private static ObjectId id(int n) {
        byte[] raw = new byte[20];
        Arrays.fill(raw, (byte) (0x11 * (n + 1)));
        return ObjectId.fromRaw(raw);
    }

    private static String show(byte[] name) {
        return new String(name, java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
