package dev.palimpsest.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.layout.FileMeta;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Rule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.eclipse.jgit.errors.LargeObjectException;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.ObjectStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The produced-content limit at its edge, through readers that report a content blob's size as
 * the limit or one byte more (a real 4 GiB blob is out of a unit test's reach).
 */
class ContentLimitTest {
    private static final byte[] BYTES = "produced bytes".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private ForgedCases.Store s;
    private ObjectId commit;
    private ObjectId blob;
    private String contentPath;

    @BeforeEach
    void forgeAProducedFile() throws Exception {
        s = GateHistory.write(dir);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(BYTES));
        FileMeta meta = new FileMeta("a.txt", "text/plain", sha, BYTES.length, null);
        FactId id = FileMeta.idOf("a.txt");
        Fact record = new Fact(id, Kind.of(FileMeta.KIND), meta.encode(), null, List.of(s.srcRef(RefRole.SOURCE,
                null)));
        contentPath = meta.contentPath();
        commit = s.forge().put(StorePaths.factPath(record.kind(), id), FactCodec.encode(record))
                .put(contentPath, BYTES).trailers("alice", "assert", "Palimpsest-Fact", id.value()).commit();
        blob = new ObjectInserter.Formatter().idFor(Constants.OBJ_BLOB, BYTES);
    }

    @Test
    void contentOfExactlyTheLimitPasses() throws Exception {
        assertThat(auditSized(Limits.MAX_CONTENT)).isEmpty();
    }

    @Test
    void contentOneByteOverTheLimitIsTooLarge() throws Exception {
        List<AuditViolation> vs = auditSized(Limits.MAX_CONTENT + 1);
        assertThat(vs).extracting(AuditViolation::rule).containsExactly(Rule.TOO_LARGE);
        assertThat(vs.get(0).path()).isEqualTo(contentPath);
    }

    /** Audits the forged commit through readers that give the content blob {@code size}. */
    private List<AuditViolation> auditSized(long size) throws Exception {
        try (GitRepo repo = GitRepo.open(s.gitDir(), false);
                AuditStream st = new AuditEngine(repo, AuditEngine.standardChecks()).stream(AuditObserver.NONE,
                        () -> new Sized(repo.newReader(), blob, size))) {
            return st.finish(s.main(), commit, AuditProgress.none()).violations();
        }
    }

    /** A reader that reports one blob's size as {@code size}, its content unchanged. */
    private static final class Sized extends ObjectReader.Filter {
        private final ObjectReader delegate;
        private final ObjectId blob;
        private final long size;

        Sized(ObjectReader delegate, ObjectId blob, long size) {
            this.delegate = delegate;
            this.blob = blob;
            this.size = size;
        }

        @Override
        protected ObjectReader delegate() {
            return delegate;
        }

        @Override
        public ObjectLoader open(AnyObjectId id) throws IOException {
            return open(id, OBJ_ANY);
        }

        @Override
        public ObjectLoader open(AnyObjectId id, int type) throws IOException {
            ObjectLoader l = delegate.open(id, type);
            if (!blob.equals(id)) {
                return l;
            }
            return new ObjectLoader() {
                @Override
                public int getType() {
                    return l.getType();
                }

                @Override
                public long getSize() {
                    return size;
                }

                @Override
                public boolean isLarge() {
                    return true;
                }

                @Override
                public byte[] getCachedBytes() throws LargeObjectException {
                    throw new LargeObjectException(blob);
                }

                @Override
                public ObjectStream openStream() throws IOException {
                    return l.openStream();
                }
            };
        }
    }
}
