package dev.palimpsest.files;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.derive.Derivation;
import dev.palimpsest.model.Dependent;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.ProvenanceNode;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The persisted receipt-members index ({@code palimpsest-index/receipts-v1.log}): reused on reopen
 * without decoding artifact blobs; missing, corrupt, torn, older-format or foreign, it is rebuilt
 * from git with one stderr line and the same answers; a folder at its path keeps it in memory.
 */
class ReceiptsIndexRebuildTest {
    private static final FactId SRC = FactId.of("doc-1");
    private static final FactId A1 = FactId.of("a1");
    private static final FactId M1 = FactId.of("m1");
    private static final FactId M2 = FactId.of("m2");

    @TempDir
    Path dir;

    private Path build(Path at, String merged) throws Exception {
        try (Store s = TestStores.init(at)) {
            ProducedFilesTest.source(s, "doc-1");
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.ASSERTION, "ERK regulates apoptosis").id(A1)
                    .refs(List.of(new RefSpec(SRC, null, RefRole.SOURCE, null)))
                    .grounding(Grounding.triple("ERK", "regulates", "apoptosis")));
            tx.commit();
            tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.MERGE, merged).id(M1)
                    .grounding(new Grounding(null, null, null, new Receipt(List.of(List.of(Pin.of(A1)))), List.of(), false)));
            tx.commit();
            s.derivations().dependents(SRC, s.head(), true); // writes the file
            tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.MERGE, "merge of " + merged).id(M2)
                    .grounding(new Grounding(null, null, null, new Receipt(List.of(List.of(Pin.of(M1)))), List.of(), false)));
            tx.commit();
            s.derivations().dependents(SRC, s.head(), true); // appends the summary's record
            return s.gitDir();
        }
    }

    private static Path log(Path gitDir) {
        return gitDir.resolve("palimpsest-index").resolve("receipts-v1.log");
    }

    private record Answer(long decodes, String err) {}

    private Answer askRight(Path gitDir) throws Exception {
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        long before = Derivation.receiptDecodes();
        try (Store s = Store.open(gitDir, new KeyHome(dir.resolve("home")))) {
            assertThat(s.derivations().dependents(SRC, s.head(), true)).containsExactly(new Dependent(A1, 1, A1, true),
                    new Dependent(M1, 2, A1, true), new Dependent(M2, 3, A1, true));
            assertThat(s.derivations().dependents(A1, s.head(), false)).containsExactly(new Dependent(M1, 1, M1, true));
            ProvenanceNode root = s.derivations().explain(M2, s.head());
            assertThat(root.children()).singleElement().satisfies(n -> {
                assertThat(n.id()).isEqualTo(M1);
                assertThat(n.role().value()).isEqualTo("receipt");
                assertThat(n.children()).singleElement().satisfies(c -> assertThat(c.id()).isEqualTo(A1));
            });
        } finally {
            System.setErr(old);
        }
        return new Answer(Derivation.receiptDecodes() - before, err.toString(StandardCharsets.UTF_8));
    }

    private static List<String> receiptLines(String err) {
        return err.lines().filter(l -> l.contains("receipt-members")).toList();
    }

    /** Rebuilt with one line saying why, then reused by the next open (no decode, no line). */
    private void assertRebuilt(Path gitDir, String why) throws Exception {
        Answer a = askRight(gitDir);
        assertThat(receiptLines(a.err())).singleElement().satisfies(l -> assertThat(l).contains(why));
        assertThat(a.decodes()).isEqualTo(2);
        assertThat(Files.isRegularFile(log(gitDir))).isTrue();
        Answer again = askRight(gitDir);
        assertThat(receiptLines(again.err())).isEmpty();
        assertThat(again.decodes()).isZero();
    }

    @Test
    void aReopenReusesThePersistedFileWithoutDecodingOrRewriting() throws Exception {
        Path git = build(dir.resolve("s"), "merged view");
        byte[] bytes = Files.readAllBytes(log(git));
        FileTime mtime = FileTime.fromMillis(1_000_000L);
        Files.setLastModifiedTime(log(git), mtime);
        Answer a = askRight(git);
        assertThat(a.decodes()).isZero();
        assertThat(receiptLines(a.err())).isEmpty();
        assertThat(Files.readAllBytes(log(git))).isEqualTo(bytes);
        assertThat(Files.getLastModifiedTime(log(git))).isEqualTo(mtime);
    }

    @Test
    void theWritersOwnArtifactVersionsAreRecordedWithoutDecoding() throws Exception {
        Path git = build(dir.resolve("s"), "merged view");
        long size = Files.size(log(git));
        FactId m3 = FactId.of("m3");
        long before = Derivation.receiptDecodes();
        try (Store s = Store.open(git, new KeyHome(dir.resolve("s").resolve("home")))) {
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.MERGE, "another view").id(m3)
                    .grounding(new Grounding(null, null, null, new Receipt(List.of(List.of(Pin.of(A1)))), List.of(), false)));
            tx.commit();
            assertThat(s.derivations().dependents(A1, s.head(), false)).containsExactly(new Dependent(M1, 1, M1, true),
                    new Dependent(m3, 1, m3, true));
        }
        assertThat(Derivation.receiptDecodes() - before).isZero();
        assertThat(Files.size(log(git))).isGreaterThan(size);
        before = Derivation.receiptDecodes();
        try (Store s = Store.open(git, new KeyHome(dir.resolve("s").resolve("home")))) {
            assertThat(s.derivations().dependents(A1, s.head(), false)).containsExactly(new Dependent(M1, 1, M1, true),
                    new Dependent(m3, 1, m3, true));
        }
        assertThat(Derivation.receiptDecodes() - before).isZero();
    }

    @Test
    void aMissingFileIsBuilt() throws Exception {
        Path git = build(dir.resolve("s"), "merged view");
        Files.delete(log(git));
        assertRebuilt(git, "missing");
    }

    @Test
    void aFlippedByteIsNoticedAndRebuilt() throws Exception {
        Path git = build(dir.resolve("s"), "merged view");
        byte[] b = Files.readAllBytes(log(git));
        b[b.length - 10] ^= 0x40;
        Files.write(log(git), b);
        assertRebuilt(git, "discarded");
    }

    @Test
    void aTornTailIsNoticedAndRebuilt() throws Exception {
        Path git = build(dir.resolve("s"), "merged view");
        byte[] b = Files.readAllBytes(log(git));
        Files.write(log(git), Arrays.copyOf(b, b.length - 3));
        assertRebuilt(git, "torn");
    }

    @Test
    void anOlderFormatIsRebuilt() throws Exception {
        Path git = build(dir.resolve("s"), "merged view");
        byte[] b = Files.readAllBytes(log(git));
        b[7] = 0; // version 0
        Files.write(log(git), b);
        assertRebuilt(git, "format version 0");
    }

    @Test
    void anotherStoresFileIsRebuilt() throws Exception {
        Path git = build(dir.resolve("s"), "merged view");
        Path other = build(dir.resolve("t"), "another merged view");
        Files.copy(log(other), log(git), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertRebuilt(git, "another store");
    }

    @Test
    void aFolderAtItsPathKeepsTheIndexInMemoryWithoutClaimingADiscard() throws Exception {
        Path git = build(dir.resolve("s"), "merged view");
        Files.delete(log(git));
        Files.createDirectory(log(git));
        Answer a = askRight(git);
        assertThat(a.err()).doesNotContain("discarded");
        assertThat(receiptLines(a.err())).singleElement().satisfies(l -> assertThat(l).contains("in memory only"));
        assertThat(Files.isDirectory(log(git))).isTrue();
    }
}
