package dev.palimpsest.internal.audit;

import static dev.palimpsest.api.TestStores.ALICE;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;

/** The gate-written history the forged cases start from, and the audit's findings in one commit. */
final class GateHistory {
    private GateHistory() {}

    /** A source {@code src-1} and a claim {@code claim-1} citing it with a quote, written through the gate under {@code dir}. */
    static ForgedCases.Store write(Path dir) throws Exception {
        KeyHome home = new KeyHome(dir.resolve("home"));
        try (Store s = TestStores.init(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, ForgedCases.SRC_BODY).id(ForgedCases.SRC));
            CommitId srcCommit = t.commit().id();
            FactVersion src = s.factExistsAt(ForgedCases.SRC, srcCommit).version();
            t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "The vote was close.").id(ForgedCases.CLAIM)
                    .refs(List.of(RefSpec.cites(ForgedCases.SRC).withQuote("seven votes to two"))));
            CommitId claimCommit = t.commit().id();
            FactVersion claim = s.factExistsAt(ForgedCases.CLAIM, claimCommit).version();
            FactRead.Found read = (FactRead.Found) s.read(ForgedCases.CLAIM, claimCommit);
            return new ForgedCases.Store(s.gitDir(), home, srcCommit, src.blob(), claimCommit, claim.blob(),
                    read.fact(), ObjectId.fromString(claimCommit.hex()));
        }
    }

    static AuditReport audit(Path gitDir) throws Exception {
        try (Auditor a = Auditor.open(gitDir)) {
            return a.audit(AuditProgress.none());
        }
    }

    /** The violations the audit of the whole history finds in {@code commit}. */
    static List<AuditViolation> in(ForgedCases.Store s, ObjectId commit) throws Exception {
        return audit(s.gitDir()).violations().stream().filter(v -> v.commit().hex().equals(commit.name())).toList();
    }

    /** Each violation of {@code commit} as "rule path". */
    static List<String> rulesAt(ForgedCases.Store s, ObjectId commit) throws Exception {
        return in(s, commit).stream().map(v -> v.rule().id() + " " + v.path()).toList();
    }
}
