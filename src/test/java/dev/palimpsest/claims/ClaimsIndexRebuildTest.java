package dev.palimpsest.claims;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The persisted claims index: missing, corrupt, foreign or torn, it is rebuilt from git (one stderr line) with the right answers. */
class ClaimsIndexRebuildTest {
    @TempDir
    Path dir;

    private CommitId mid;

    private Path build(Path at, String subject) throws Exception {
        try (Store s = TestStores.init(at)) {
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.SOURCE, "doc").id(FactId.of("doc")));
            tx.commit();
            s.claims().claim(TestStores.ALICE, ClaimSpec.of(subject, "is", "one", FactId.of("doc")).id(FactId.of("a1")));
            mid = s.head();
            s.claims().supersede(TestStores.ALICE, FactId.of("a1"), ClaimSpec.of(subject, "is", "two",
                    FactId.of("doc")).id(FactId.of("a2")));
            return s.gitDir();
        }
    }

    private record Answer(List<String> now, List<String> before, List<String> dead, String err) {}

    private Answer ask(Path gitDir, String subject) throws Exception {
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try (Store s = Store.open(gitDir, new KeyHome(dir.resolve("home")))) {
            List<String> now = s.claims().at(s.head()).current(subject).stream().map(ClaimView::object).toList();
            List<String> before = s.claims().at(mid).current(subject).stream().map(ClaimView::object).toList();
            List<String> dead = s.claims().at(s.head()).deadEnds(subject, 5).kept().stream().map(c -> c.id().value()).toList();
            return new Answer(now, before, dead, err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(old);
        }
    }

    private void assertRight(Answer a) {
        assertThat(a.now()).containsExactly("two");
        assertThat(a.before()).containsExactly("one");
        assertThat(a.dead()).containsExactly("a1");
    }

    @Test
    void persistedThenReusedWithoutRebuild() throws Exception {
        Path git = build(dir.resolve("a"), "x");
        Path log = git.resolve("palimpsest-index/claims-v1.log");
        assertThat(log).isRegularFile();
        Answer a = ask(git, "x");
        assertRight(a);
        assertThat(a.err()).isEmpty();
    }

    @Test
    void missingCorruptTornAndForeignAreRebuilt() throws Exception {
        Path git = build(dir.resolve("a"), "x");
        Path log = git.resolve("palimpsest-index/claims-v1.log");
        // missing
        Files.delete(log);
        Answer a = ask(git, "x");
        assertRight(a);
        assertThat(a.err().lines()).hasSize(1).allMatch(l -> l.contains("building the claims index") && l.contains("missing"));
        assertThat(log).isRegularFile();
        // a flipped byte: the CRC catches it
        byte[] b = Files.readAllBytes(log);
        b[b.length - 20] ^= 0x5a;
        Files.write(log, b);
        a = ask(git, "x");
        assertRight(a);
        assertThat(a.err().lines()).hasSize(1).allMatch(l -> l.contains("discarded the claims index")
                && (l.contains("CRC") || l.contains("malformed")));
        // a torn tail
        b = Files.readAllBytes(log);
        Files.write(log, java.util.Arrays.copyOf(b, b.length - 3));
        a = ask(git, "x");
        assertRight(a);
        assertThat(a.err().lines()).hasSize(1);
        // an older format version
        b = Files.readAllBytes(log);
        b[7] = 9;
        Files.write(log, b);
        a = ask(git, "x");
        assertRight(a);
        assertThat(a.err()).contains("format version 9");
        // another store's index copied in
        CommitId keep = mid;
        Path other = build(dir.resolve("b"), "y");
        mid = keep;
        Files.copy(other.resolve("palimpsest-index/claims-v1.log"), log, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        a = ask(git, "x");
        assertRight(a);
        assertThat(a.err().lines()).hasSize(1).allMatch(l -> l.contains("genesis"));
        assertThat(ask(git, "x").err()).isEmpty();
    }

    @Test
    void anotherProcessesCommitsAreCaughtUp() throws Exception {
        Path git = build(dir.resolve("a"), "x");
        try (Store reader = Store.open(git, new KeyHome(dir.resolve("a/home")))) {
            assertThat(reader.claims().at(reader.head()).current("x")).extracting(ClaimView::object).containsExactly("two");
            try (Store writer = Store.open(git, new KeyHome(dir.resolve("a/home")))) {
                writer.claims().claim(TestStores.ALICE, ClaimSpec.of("x", "is", "three", FactId.of("doc")));
            }
            // the reader's index has not seen that commit: asking at main catches it up, never stale
            assertThat(reader.claims().at(reader.head()).current("x")).extracting(ClaimView::object)
                    .containsExactly("two", "three");
        }
    }

    @Test
    void mainRewoundAndMovedOnIsNoticedAndRebuilt() throws Exception {
        Path git = build(dir.resolve("a"), "x");
        // rewind main to the commit that wrote a1 (as a hand-made `git update-ref` would), then write on
        Files.writeString(git.resolve("refs/heads/main"), mid.hex() + "\n");
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try (Store s = Store.open(git, new KeyHome(dir.resolve("a/home")))) {
            s.claims().claim(TestStores.ALICE, ClaimSpec.of("x", "is", "three", FactId.of("doc")).id(FactId.of("a3")));
            assertThat(s.claims().at(s.head()).current("x")).extracting(ClaimView::object)
                    .containsExactly("one", "three");
            assertThat(s.claims().at(s.head()).deadEnds("x", 5).kept()).isEmpty();
        } finally {
            System.setErr(old);
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("main no longer extends the indexed history");
        Answer a = ask(git, "x");
        assertThat(a.now()).containsExactly("one", "three");
        assertThat(a.err()).isEmpty();
    }

    @Test
    void theLogSavedAfterAnInMemoryRebuildIsTheLogAFreshBuildWrites() throws Exception {
        Path git = build(dir.resolve("a"), "x");
        // main back to a1's commit: a2 (live at the old head) is discarded
        Files.writeString(git.resolve("refs/heads/main"), mid.hex() + "\n");
        Path log = git.resolve("palimpsest-index/claims-v1.log");
        PrintStream old = System.err;
        System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try (Store s = Store.open(git, new KeyHome(dir.resolve("a/home")))) {
            s.claims().at(s.head()).current("x");
            for (String batch : List.of("b", "c")) {
                var tx = s.begin(TestStores.ALICE);
                for (int i = 0; i < 6; i++) {
                    tx.assertFact(ClaimSpec.of("x", "is", batch + i, FactId.of("doc")).id(FactId.of(batch + i)).toFactSpec());
                }
                tx.commit();
            }
            // a plain fact taking the discarded claim's id
            var tx = s.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.SOURCE, "another doc").id(FactId.of("a2")));
            tx.commit();
        } finally {
            System.setErr(old);
        }
        byte[] saved = Files.readAllBytes(log);
        Files.delete(log);
        Answer fresh = ask(git, "x");
        assertThat(fresh.err()).contains("missing");
        assertThat(Files.readAllBytes(log)).isEqualTo(saved);
    }

    @Test
    void aFolderAtTheLogPathKeepsTheIndexInMemory() throws Exception {
        Path git = build(dir.resolve("a"), "x");
        Path log = git.resolve("palimpsest-index/claims-v1.log");
        Files.delete(log);
        Files.createDirectory(log);
        Answer a = ask(git, "x");
        assertRight(a);
        assertThat(a.err()).contains("not a regular file");
        assertThat(log).isDirectory();
    }
}
