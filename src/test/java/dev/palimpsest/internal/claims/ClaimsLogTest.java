package dev.palimpsest.internal.claims;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.git.CacheLog;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;

/** The claims log's records read back exactly as they were framed. */
class ClaimsLogTest {
    private static final ObjectId GENESIS = ObjectId.fromString("1111111111111111111111111111111111111111");
    private static final ObjectId NEXT = ObjectId.fromString("2222222222222222222222222222222222222222");

    private static byte[] file(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    @Test
    void everyKindOfRecordReadsBackAsFramed() throws Exception {
        CommitRecord genesis = new CommitRecord(GENESIS, null, "alice", List.of("depends on", "listens on"), List.of(
                new CommitRecord.Written("a1", ClaimRecord.of("a1", "GraphARC", "depends on", "redis", "doc", "run-7",
                        0.25), List.of("a0", "b0")),
                new CommitRecord.Written("a2", ClaimRecord.of("a2", "x", "is", "y", "doc", null, null), List.of()),
                new CommitRecord.Written("s1", null, List.of("a0"))));
        CommitRecord next = new CommitRecord(NEXT, GENESIS, "bob", null,
                List.of(new CommitRecord.Removed("a1"), new CommitRecord.Removed("s1")));
        CommitRecord config = new CommitRecord(GENESIS, NEXT, "", List.of(), List.of());
        byte[] log = file(ClaimsLog.header(GENESIS), ClaimsLog.frame(genesis), ClaimsLog.frame(next),
                ClaimsLog.frame(config));

        assertThat(ClaimsLog.genesis(log)).isEqualTo(GENESIS);
        List<CacheLog.Framed<CommitRecord>> records = ClaimsLog.records(log);
        assertThat(records).extracting(CacheLog.Framed::record).containsExactly(genesis, next, config);
        assertThat(records.get(0).record().events().get(0)).isInstanceOfSatisfying(CommitRecord.Written.class,
                w -> {
                    assertThat(w.claim().run()).isEqualTo("run-7");
                    assertThat(w.claim().confidence()).isEqualTo(0.25);
                });
        assertThat(records.get(0).record().events().get(1)).isInstanceOfSatisfying(CommitRecord.Written.class,
                w -> {
                    assertThat(w.claim().run()).isNull();
                    assertThat(w.claim().confidence()).isNull();
                });
        assertThat(records.get(1).bytes()).isEqualTo(ClaimsLog.frame(next));
    }
}
