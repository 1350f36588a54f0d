package dev.palimpsest.internal.audit;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.crypto.OpenPgpKeys;
import dev.palimpsest.internal.crypto.SecretKeyFiles;
import dev.palimpsest.internal.crypto.TrustedKey;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.internal.yaml.TombstoneRecord;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Rule;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forged files the rule book's cases leave untested: each file family's own checks (the store
 * configuration, retraction records, tombstones, removed facts), self-supersession added by a
 * revision, and which file or commit a finding names.
 */
class ForgedFilesTest {
    private static final FactId X = FactId.of("fact-x");

    @TempDir
    Path dir;

    private ForgedCases.Store s;

    @BeforeEach
    void writeHistory() throws Exception {
        s = GateHistory.write(dir);
    }

    @Test
    void aStoreConfigurationOfAnotherFormatIsMalformed() throws Exception {
        ObjectId c = s.forge().put(StorePaths.CONFIG, "format: 2\nlayout: sha256-2x2\n").commit();
        assertThat(GateHistory.rulesAt(s, c)).contains("malformed-file " + StorePaths.CONFIG);
    }

    @Test
    void aRetractionRecordAtAnotherFactsPathIsAWrongPath() throws Exception {
        String at = StorePaths.retractionPath(ForgedCases.CLAIM);
        ObjectId c = s.forge().put(at, FactCodec.encode(new RetractionRecord(new FactVersion(ForgedCases.SRC,
                s.srcCommit(), s.srcBlob()), "misfiled", ALICE))).commit();
        assertThat(GateHistory.rulesAt(s, c)).contains("wrong-path " + at);
    }

    @Test
    void aTombstoneAtAnotherFactsPathIsAWrongPath() throws Exception {
        String at = StorePaths.tombstonePath(FactId.of("elsewhere"));
        ObjectId c = s.forge().put(at, TombstoneRecord.encode(new TombstoneRecord(ForgedCases.SRC, "0".repeat(64),
                "misfiled", ALICE, null, new TreeSet<>(List.of(ForgedCases.CLAIM))))).commit();
        assertThat(GateHistory.rulesAt(s, c)).contains("wrong-path " + at);
    }

    @Test
    void aFactFileRemovedWithoutItsRetractionRecordIsInconsistent() throws Exception {
        String src = ForgedCases.path(ForgedCases.SRC, Kind.SOURCE);
        ObjectId c = s.forge().remove(src).trailers("alice", "retract", "Palimpsest-Fact", ForgedCases.SRC.value())
                .commit();
        assertThat(GateHistory.rulesAt(s, c)).contains("retraction-inconsistent " + src);
    }

    @Test
    void aRevisionThatAddsASelfSupersessionIsFlaggedThoughItCarriedRefsOfTheSameIdOrTheSameRole() throws Exception {
        String at = ForgedCases.path(X, Kind.CLAIM);
        s.forge().put(at, FactCodec.encode(new Fact(X, Kind.CLAIM, "Cites itself, supersedes the claim.", null,
                List.of(new Ref(X, RefRole.of("cites"), null, null, null),
                        new Ref(ForgedCases.CLAIM, RefRole.SUPERSEDES, null, null, null)))))
                .trailers("alice", "assert", "Palimpsest-Fact", X.value()).commit();
        ObjectId c = s.forge().put(at, FactCodec.encode(new Fact(X, Kind.CLAIM, "Now supersedes itself.", null,
                List.of(new Ref(X, RefRole.SUPERSEDES, null, null, null)))))
                .trailers("alice", "revise", "Palimpsest-Fact", X.value()).commit();
        assertThat(GateHistory.rulesAt(s, c)).contains("self-supersession " + at);
    }

    @Test
    void aMergeThatAlsoAssertsHasNeitherTheMergedTreeNorTheMergeTrailers() throws Exception {
        ObjectId side = s.forge().put(ForgedCases.path(FactId.of("side"), Kind.CLAIM), FactCodec.encode(new Fact(
                FactId.of("side"), Kind.CLAIM, "a side line", null, List.of())))
                .trailers("alice", "assert", "Palimpsest-Fact", "side").commit(false);
        ObjectId c = s.forge().put(ForgedCases.path(X, Kind.CLAIM), FactCodec.encode(new Fact(X, Kind.CLAIM,
                "a merge that also asserts", null, List.of()))).trailers("alice", "assert", "Palimpsest-Fact",
                X.value()).parents(s.main(), side).commit();
        List<AuditViolation> vs = GateHistory.in(s, c);
        assertThat(vs).extracting(AuditViolation::rule).containsExactly(Rule.MERGE_MISMATCH, Rule.MERGE_MISMATCH);
        assertThat(vs.get(0).message()).contains("is not the convergent merge of its parents");
        assertThat(vs.get(1).message()).contains("trailers");
    }

    @Test
    void aCommitSignedByAnOutsiderNamesTheAuthorsTrustedKey() throws Exception {
        new SecretKeyFiles(s.home().dir()).create(ActorName.of("eve"), "eve@x");
        String alice = TrustedKey.of(OpenPgpKeys.publicRing(new SecretKeyFiles(s.home().dir()).load(ALICE)))
                .fingerprint();
        ObjectId c = s.forge().put(ForgedCases.path(X, Kind.CLAIM), FactCodec.encode(new Fact(X, Kind.CLAIM,
                "signed by an outsider", null, List.of()))).trailers("alice", "assert", "Palimpsest-Fact", X.value())
                .signedBy("eve").commit();
        List<AuditViolation> vs = GateHistory.in(s, c);
        assertThat(vs).extracting(AuditViolation::rule).containsExactly(Rule.UNTRUSTED_SIGNER);
        assertThat(vs.get(0).message()).endsWith(": it is not alice's key " + alice);
    }

    @Test
    void aFileOverTheLimitIsNamedEvenWhenAnotherFileChangedBeforeIt() throws Exception {
        String big = ForgedCases.path(X, Kind.CLAIM);
        ObjectId c = s.forge().put("README.md", "sorts before facts/").put(big, FactCodec.encode(new Fact(X,
                Kind.CLAIM, "x".repeat(Limits.MAX_FILE), null, List.of())))
                .trailers("alice", "assert", "Palimpsest-Fact", X.value()).commit();
        List<AuditViolation> vs = GateHistory.in(s, c);
        assertThat(vs).extracting(AuditViolation::rule).contains(Rule.TOO_LARGE);
        assertThat(vs).filteredOn(v -> v.rule() == Rule.TOO_LARGE).extracting(AuditViolation::path).containsOnly(big);
    }
}
