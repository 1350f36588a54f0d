package dev.palimpsest.internal.audit;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.ProducedFiles;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.layout.ContentPaths;
import dev.palimpsest.internal.layout.FileMeta;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.StoredFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Produced files forged past the gate: the audit names the rule at the path. */
class ContentAuditTest {
    @TempDir
    Path dir;

    private StoredFile good;
    /** A source ref to {@code doc-1}, pinned: every file record cites a source. */
    private Ref source;

    @BeforeEach
    void writeHistory() throws Exception {
        try (Store s = TestStores.init(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, "A source document.").id(FactId.of("doc-1")));
            CommitId at = t.commit().id();
            FactVersion v = s.factExistsAt(FactId.of("doc-1"), at).version();
            source = new Ref(FactId.of("doc-1"), RefRole.SOURCE, v.commit(), v.blob(), null);
            Path f = dir.resolve("a.txt");
            Files.writeString(f, "good bytes");
            good = s.files().put(ALICE, ProducedFiles.Put.of("a.txt", f, FactId.of("doc-1")));
        }
        assertThat(audit().violations()).isEmpty();
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    private Forge record(Forge f, String name, String body) {
        FactId id = FileMeta.idOf(name);
        Fact fact = new Fact(id, Kind.of("file"), body, null, List.of(source));
        return f.put(StorePaths.factPath(fact.kind(), id), FactCodec.encode(fact)).trailers("alice", "assert",
                "Palimpsest-Fact", id.value());
    }

    @Test
    void contentWhoseSha256IsNotItsNameIsAWrongPath() throws Exception {
        String sha = sha256("hello");
        String body = new FileMeta("evil.txt", "text/plain", sha, 5, null).encode();
        ObjectId c = record(forge(), "evil.txt", body).put(ContentPaths.of(sha), "olleh").commit();
        assertOnly(c, ContentPaths.of(sha), "wrong-path");
    }

    @Test
    void contentNoRecordNamesIsUnexplained() throws Exception {
        String sha = sha256("orphan");
        String body = new FileMeta("b.txt", "text/plain", good.sha256(), good.size(), null).encode();
        ObjectId c = record(forge(), "b.txt", body).put(ContentPaths.of(sha), "orphan").commit();
        assertOnly(c, ContentPaths.of(sha), "unexplained-change");
    }

    @Test
    void removedContentIsUnexplained() throws Exception {
        String body = new FileMeta("c.txt", "text/plain", good.sha256(), good.size(), null).encode();
        ObjectId c = record(forge(), "c.txt", body).remove(good.path()).commit();
        List<String> rules = violations(c).stream().map(v -> v.rule().id() + " " + v.path()).toList();
        assertThat(rules).contains("unexplained-change " + good.path());
    }

    @Test
    void aRecordWithoutMetadataOrContentIsAnInvalidFileRecord() throws Exception {
        FactId id = FileMeta.idOf("d.txt");
        String path = StorePaths.factPath(Kind.of("file"), id);
        ObjectId c = record(forge(), "d.txt", "not metadata").commit();
        assertOnly(c, path, "invalid-file-record");
        String missing = new FileMeta("e.txt", "text/plain", sha256("absent"), 6, null).encode();
        ObjectId c2 = record(forge(), "e.txt", missing).commit();
        List<AuditViolation> vs = audit().violations().stream().filter(v -> v.commit().hex().equals(c2.name())).toList();
        assertThat(vs).extracting(v -> v.rule().id()).containsExactly("invalid-file-record");
    }

    @Test
    void aRecordUnderAnotherIdIsAnInvalidFileRecord() throws Exception {
        String body = new FileMeta("f.txt", "text/plain", good.sha256(), good.size(), null).encode();
        FactId id = FileMeta.idOf("g.txt");
        Fact fact = new Fact(id, Kind.of("file"), body, null, List.of(source));
        String path = StorePaths.factPath(fact.kind(), id);
        ObjectId c = forge().put(path, FactCodec.encode(fact)).trailers("alice", "assert", "Palimpsest-Fact", id.value())
                .commit();
        assertOnly(c, path, "invalid-file-record");
    }

    @Test
    void aRecordWithoutASourceIsFlagged() throws Exception {
        String body = new FileMeta("h.txt", "text/plain", good.sha256(), good.size(), null).encode();
        FactId id = FileMeta.idOf("h.txt");
        Fact fact = new Fact(id, Kind.of("file"), body, null, List.of());
        String path = StorePaths.factPath(fact.kind(), id);
        ObjectId c = forge().put(path, FactCodec.encode(fact)).trailers("alice", "assert", "Palimpsest-Fact", id.value())
                .commit();
        assertOnly(c, path, "file-source-required");
    }

    @Test
    void aMisshapedPathUnderFilesIsUnexpected() throws Exception {
        ObjectId c = forge().put("files/zz/readme.txt", "x").put(StorePaths.factPath(Kind.CLAIM, FactId.of("x1")),
                FactCodec.encode(new Fact(FactId.of("x1"), Kind.CLAIM, "a claim", null, List.of())))
                .trailers("alice", "assert", "Palimpsest-Fact", "x1").commit();
        assertThat(violations(c)).extracting(v -> v.rule().id()).contains("unexpected-path");
    }

    private void assertOnly(ObjectId commit, String path, String rule) throws Exception {
        List<AuditViolation> vs = violations(commit);
        assertThat(vs).as(vs.toString()).hasSize(1);
        assertThat(vs.get(0).rule().id()).isEqualTo(rule);
        assertThat(vs.get(0).path()).isEqualTo(path);
    }

    private List<AuditViolation> violations(ObjectId commit) throws Exception {
        AuditReport r = audit();
        assertThat(r.violations()).allMatch(v -> v.commit().hex().equals(commit.name()), "all in the forged commit");
        return r.violations();
    }

    private AuditReport audit() throws Exception {
        try (Auditor a = Auditor.open(dir.resolve("store.git"))) {
            return a.audit(AuditProgress.none());
        }
    }

    private Forge forge() {
        return Forge.by(dir.resolve("store.git"), new KeyHome(dir.resolve("home")), "alice");
    }
}
