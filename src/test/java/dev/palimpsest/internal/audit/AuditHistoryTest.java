package dev.palimpsest.internal.audit;

import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.FactSpec;
import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.crypto.OpenPgpKeys;
import dev.palimpsest.internal.crypto.SecretKeyFiles;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Histories written through the gate pass the audit, whole or by range. */
class AuditHistoryTest {
    static final ActorName BOB = ActorName.of("bob");

    @TempDir
    Path dir;

    @Test
    void everyKindOfWriteThroughTheGatePassesTheAudit() throws Exception {
        CommitId last;
        int commits = 1;
        try (Store s = TestStores.init(dir)) {
            String bobKey = newKey(BOB);
            s.begin(ALICE).addKey(BOB, bobKey, KeyRole.HUMAN).commit();
            commits++;
            Transaction t = s.begin(BOB);
            FactId src = t.assertFact(FactSpec.of(Kind.SOURCE, "The harbour board approved the new breakwater by seven votes to two.")
                    .id(FactId.of("src-1")));
            CommitId c1 = t.commit().id();
            commits++;
            s.begin(ALICE).revise(src, "The harbour board approved the breakwater, seven votes to two, in 1887.",
                    List.of()).commit();
            commits++;
            t = s.begin(ALICE);
            FactId hyp = t.assertFact(FactSpec.of(Kind.HYPOTHESIS, "Dredging costs decided the vote.")
                    .id(FactId.of("hyp-1")));
            FactId claim = t.assertFact(FactSpec.of(Kind.CLAIM, "The vote was close.").id(FactId.of("claim-1")).confidence(0.7)
                    .refs(List.of(
                    RefSpec.cites(src).at(c1).withQuote("approved the new   breakwater"),
                    RefSpec.cites(hyp).withQuote("Dredging costs decided"))));
            t.commit();
            commits++;
            s.begin(BOB).retract(src, "the minutes were misread").commit();
            commits++;
            s.begin(ALICE).addRefs(claim, List.of(new RefSpec(src, null, RefRole.of("derived_from"),
                    "seven votes to two, in 1887"))).commit();
            commits++;
            t = s.begin(BOB);
            t.assertFact(FactSpec.of(Kind.SOURCE, "The harbour board minutes, re-read.").id(src));
            t.retract(hyp, "no evidence");
            t.commit();
            commits++;
            last = s.begin(ALICE).revokeKey(BOB).commit().id();
            commits++;
        }
        AuditReport r = audit(null);
        assertThat(r.violations()).isEmpty();
        assertThat(r.clean()).isTrue();
        assertThat(r.commits()).isEqualTo(commits);
        assertThat(r.signatures()).isEqualTo(commits);
        assertThat(r.refs()).as("3 new refs, plus the same-transaction ref pinned when claim-1 was revised").isEqualTo(4);
        assertThat(last).isNotNull();
    }

    @Test
    void aRangeAuditsOnlyItsCommitsAndStillChecksPinsToEarlierOnes() throws Exception {
        CommitId base;
        try (Store s = TestStores.init(dir)) {
            Transaction t = s.begin(ALICE);
            FactId src = t.assertFact(FactSpec.of(Kind.SOURCE, "A long enough source body to quote from.")
                    .id(FactId.of("src-1")));
            CommitId c1 = t.commit().id();
            base = s.head();
            t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "cites the source")
                    .refs(List.of(RefSpec.cites(src).at(c1).withQuote("enough source body"))));
            t.commit();
            t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "cites it again").refs(List.of(RefSpec.cites(src))));
            t.commit();
        }
        AuditReport r = audit(base.hex() + "..main");
        assertThat(r.violations()).isEmpty();
        assertThat(r.commits()).isEqualTo(2);
        assertThat(r.refs()).isEqualTo(2);
        assertThat(audit("0000000000000000000000000000000000000000.." + base.hex()).commits()).isEqualTo(2);
    }

    @Test
    void progressReachesTheTotal() throws Exception {
        try (Store s = TestStores.init(dir)) {
            for (int i = 0; i < 40; i++) {
                Transaction t = s.begin(ALICE);
                t.assertFact(FactSpec.of(Kind.CLAIM, "fact number " + i));
                t.commit();
            }
        }
        int[] last = new int[2];
        try (Auditor a = Auditor.open(gitDir())) {
            a.audit((done, total) -> {
                last[0] = done;
                last[1] = total;
            });
        }
        assertThat(last).containsExactly(41, 41);
    }

    private String newKey(ActorName actor) {
        return OpenPgpKeys.armor(OpenPgpKeys.publicRing(new SecretKeyFiles(home().dir()).create(actor,
                actor + "@palimpsest.local")));
    }

    private KeyHome home() {
        return new KeyHome(dir.resolve("home"));
    }

    private Path gitDir() {
        return dir.resolve("store.git");
    }

    private AuditReport audit(String range) throws Exception {
        try (Auditor a = Auditor.open(gitDir())) {
            return range == null ? a.audit(AuditProgress.none()) : a.auditRange(range, AuditProgress.none());
        }
    }
}
