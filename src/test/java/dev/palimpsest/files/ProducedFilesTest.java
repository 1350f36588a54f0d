package dev.palimpsest.files;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.ProducedFiles;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.Dependent;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.ProvenanceNode;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.StoredFile;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProducedFilesTest {
    @TempDir
    Path dir;

    static FactId source(Store s, String id) throws Exception {
        Transaction tx = s.begin(ALICE);
        tx.assertFact(FactSpec.of(Kind.SOURCE, "A source document " + id).id(FactId.of(id)));
        tx.commit();
        return FactId.of(id);
    }

    private Path bytes(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    static String git(Path gitDir, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "--git-dir", gitDir.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd) + ": " + out).isZero();
        return out;
    }

    @Test
    void versionsTraversalNameSharedBytesGitAndAudit() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId src = source(s, "doc-1");
            ProducedFiles files = s.files();
            StoredFile v1 = files.put(ALICE, ProducedFiles.Put.of("report.md", bytes("a", "# first\n"), src).withRun("run-1"));
            StoredFile v2 = files.put(ALICE, ProducedFiles.Put.of("report.md", bytes("b", "# second\n"), src).withRun("run-2"));
            assertThat(v2.id()).isEqualTo(v1.id());
            assertThat(v1.mediaType()).isEqualTo("text/markdown");
            assertThat(files.versions("report.md")).extracting(StoredFile::sha256).containsExactly(v1.sha256(), v2.sha256());
            assertThat(files.versions("report.md")).extracting(StoredFile::live).containsExactly(false, true);
            // a traversal-looking name is just a name
            StoredFile evil = files.put(ALICE, ProducedFiles.Put.of("../../etc/passwd", bytes("c", "# first\n"), src)
                    .withParents(List.of(v1.id())));
            assertThat(evil.name()).isEqualTo("../../etc/passwd");
            assertThat(evil.path()).startsWith("files/").doesNotContain("..");
            // identical bytes: one blob, one path
            assertThat(evil.content()).isEqualTo(v1.content());
            assertThat(evil.path()).isEqualTo(v1.path());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            files.copy(files.get(evil.id(), s.head()), out);
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("# first\n");
            assertThat(files.list(s.head())).extracting(StoredFile::name).containsExactly("../../etc/passwd", "report.md");
            assertThat(Files.exists(dir.resolve("etc"))).isFalse();
            // real git sees the bytes at their path
            Path g = s.gitDir();
            assertThat(git(g, "show", "main:" + v2.path())).isEqualTo("# second\n");
            assertThat(git(g, "cat-file", "-p", v1.content().hex())).isEqualTo("# first\n");
            assertThat(git(g, "ls-tree", "-r", "--name-only", "main")).contains(v1.path(), v2.path());
            git(g, "fsck", "--strict");
            // derivation: the evil file derives from report.md's record, which derives from doc-1
            List<Dependent> ds = s.derivations().dependents(src, s.head(), true);
            assertThat(ds).containsExactlyInAnyOrder(new Dependent(v1.id(), 1, v1.id(), true),
                    new Dependent(evil.id(), 1, evil.id(), true));
            assertThat(s.derivations().dependents(v1.id(), s.head(), true))
                    .containsExactly(new Dependent(evil.id(), 1, evil.id(), true));
        }
        try (Auditor a = Auditor.open(dir.resolve("store.git"))) {
            AuditReport r = a.audit(AuditProgress.none());
            assertThat(r.violations()).isEmpty();
        }
    }

    @Test
    void provenanceIsCheckedBeforeAnythingIsWritten() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId src = source(s, "doc-1");
            Path f = bytes("x", "unique bytes nobody stored " + System.nanoTime());
            Set<String> before = TestStores.durableState(s.gitDir());
            assertThatThrownBy(() -> ProducedFiles.Put.of("x.txt", f, null))
                    .isInstanceOf(NullPointerException.class).hasMessage("source"); // file-source-required: GateRuleCasesTest
            assertThatThrownBy(() -> s.files().put(ALICE, ProducedFiles.Put.of("x.txt", f, FactId.of("nope"))))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("ref-target-missing");
            assertThatThrownBy(() -> s.files().put(ALICE, ProducedFiles.Put.of("x.txt", f, src)
                    .withParents(List.of(FactId.of("file-0"))))).isInstanceOf(RejectedException.class).hasMessageContaining("ref-target-missing");
            assertThatThrownBy(() -> s.files().put(ALICE, ProducedFiles.Put.of("x.txt", f, src).withParents(List.of(src))))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("file-parent-not-file");
            assertThatThrownBy(() -> s.files().put(ALICE, ProducedFiles.Put.of("x.txt", f, src).withClaims(List.of(FactId.of("c9")))))
                    .isInstanceOf(RejectedException.class).hasMessageContaining("ref-target-missing");
            assertThat(TestStores.durableState(s.gitDir())).isEqualTo(before);
        }
    }

    @Test
    void dependentsKeepRetractedVersionsAndExplainShowsStatuses() throws Exception {
        try (Store s = TestStores.init(dir)) {
            FactId src = source(s, "doc-1");
            Transaction tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "claim a").id(FactId.of("a")).refs(List.of(RefSpec.cites(src))));
            tx.commit();
            tx = s.begin(ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "claim b").id(FactId.of("b")).refs(List.of(RefSpec.cites(FactId.of("a")))));
            tx.commit();
            var before = s.head();
            List<Dependent> d0 = s.derivations().dependents(src, before, true);
            tx = s.begin(ALICE);
            tx.retract(FactId.of("b"), "wrong");
            tx.commit();
            tx = s.begin(ALICE);
            tx.revise(src, "A source document doc-1, revised", List.of());
            tx.commit();
            List<Dependent> d1 = s.derivations().dependents(src, s.head(), true);
            assertThat(d1).extracting(Dependent::id).containsAll(d0.stream().map(Dependent::id).toList());
            assertThat(d1).filteredOn(d -> d.id().value().equals("b")).singleElement()
                    .satisfies(d -> assertThat(d.live()).isFalse());
            assertThat(s.derivations().dependents(src, s.head(), false)).extracting(d -> d.id().value())
                    .containsExactly("a");
            ProvenanceNode root = s.derivations().explain(FactId.of("b"), s.head());
            assertThat(root.status()).isEqualTo(ProvenanceNode.Status.RETRACTED);
            assertThat(root.actor()).isEqualTo("alice");
            ProvenanceNode a = root.children().get(0);
            assertThat(a.status()).isEqualTo(ProvenanceNode.Status.LIVE);
            assertThat(a.children().get(0).id()).isEqualTo(src);
            assertThat(a.children().get(0).status()).isEqualTo(ProvenanceNode.Status.REVISED);
            tx = s.begin(ALICE);
            tx.supersede(FactId.of("a"), FactSpec.of(Kind.CLAIM, "claim a, better"));
            tx.commit();
            assertThat(s.derivations().explain(FactId.of("a"), s.head()).status())
                    .isEqualTo(ProvenanceNode.Status.SUPERSEDED);
        }
    }
}
