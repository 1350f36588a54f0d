package dev.palimpsest.internal.index;

import dev.palimpsest.model.FactSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexLogTamperTest {
    @TempDir
    Path dir;

    @Test
    void aWellFormedLogThatLiesAboutACommitIsFlaggedByTheAuditAndDiscarded() throws Exception {
        Path gitDir;
        try (Store s = TestStores.init(dir)) {
            for (int i = 0; i < 4; i++) {
                Transaction tx = s.begin(TestStores.ALICE);
                tx.assertFact(FactSpec.of(Kind.CLAIM, "fact " + i).id(FactId.of("f" + i)));
                tx.commit();
            }
            gitDir = s.gitDir();
        }
        IndexLog log = new IndexLog(gitDir);
        IndexLog.Read read = log.read(0);
        List<IndexLog.Entry> forged = new ArrayList<>();
        ObjectId lied = null;
        for (IndexLog.Entry e : read.entries()) {
            if (lied == null && e.events().containsKey("f2")) {
                Map<String, FactEvent> events = new LinkedHashMap<>(e.events());
                FactEvent ev = events.get("f2");
                events.put("f2", new FactEvent(ev.commit(), ev.live(), ev.versionCommit(), ObjectId.zeroId().equals(
                        ev.blob()) ? ev.blob() : ObjectId.fromString("0123456789abcdef0123456789abcdef01234567"),
                        ev.kind(), ev.refs()));
                e = new IndexLog.Entry(e.commit(), e.firstParent(), events);
                lied = e.commit();
            }
            forged.add(e);
        }
        log.create(read.genesis());
        log.append(forged);
        try (Auditor a = Auditor.open(gitDir)) {
            AuditReport r = a.audit(AuditProgress.none());
            assertThat(r.violations()).extracting(v -> v.rule().id()).containsExactly("index-disagrees");
            assertThat(r.violations().get(0).commit().hex()).isEqualTo(lied.name());
        }
        assertThat(log.file()).doesNotExist();
        try (Auditor a = Auditor.open(gitDir)) {
            assertThat(a.audit(AuditProgress.none()).violations()).isEmpty();
        }
    }
}
