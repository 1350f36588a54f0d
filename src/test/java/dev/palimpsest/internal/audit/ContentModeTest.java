package dev.palimpsest.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.layout.FileMeta;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Rule;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A produced file's content made executable is one unexpected-mode finding. */
class ContentModeTest {
    @TempDir
    Path dir;

    @Test
    void producedContentMadeExecutableIsReportedOnce() throws Exception {
        ForgedCases.Store s = GateHistory.write(dir);
        byte[] bytes = "produced bytes".getBytes(StandardCharsets.UTF_8);
        FileMeta meta = new FileMeta("report.txt", "text/plain",
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)), bytes.length, null);
        FactId id = FileMeta.idOf("report.txt");
        Fact f = new Fact(id, Kind.of(FileMeta.KIND), meta.encode(), null,
                List.of(s.srcRef(dev.palimpsest.model.RefRole.SOURCE, null)));
        s.forge().put(ForgedCases.path(id, f.kind()), FactCodec.encode(f)).put(meta.contentPath(), bytes)
                .trailers("alice", "assert", "Palimpsest-Fact", id.value()).commit();
        ObjectId tree = RawTrees.mainWith(s.gitDir(), meta.contentPath(), "100755", RawTrees.blob(s.gitDir(), bytes),
                RawTrees.Placement.REPLACE);
        ObjectId c = s.forge().tree(tree).trailers("alice").commit();
        List<AuditViolation> vs = GateHistory.in(s, c);
        assertThat(vs).as(vs.toString()).filteredOn(v -> v.rule() == Rule.UNEXPECTED_MODE)
                .extracting(AuditViolation::path).containsExactly(meta.contentPath());
    }
}
