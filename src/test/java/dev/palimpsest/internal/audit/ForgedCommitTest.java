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
import dev.palimpsest.internal.crypto.TrustedKey;
import dev.palimpsest.internal.yaml.KeyCodec;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefSpec;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each commit forged past the gate breaks one rule, and the audit names that rule at that commit
 * (and path); the gate-written history before it stays clean.
 */
class ForgedCommitTest {
    private static final FactId SRC = FactId.of("src-1");
    private static final String SRC_BODY = "The harbour board approved the new breakwater by seven votes to two.";
    private static final FactId CLAIM = FactId.of("claim-1");

    @TempDir
    Path dir;

    private CommitId srcCommit;
    private String srcBlob;

    @BeforeEach
    void writeHistory() throws Exception {
        try (Store s = TestStores.init(dir)) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, SRC_BODY).id(SRC));
            srcCommit = t.commit().id();
            srcBlob = s.factExistsAt(SRC, srcCommit).version().blob().hex();
            t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "The vote was close.").id(CLAIM)
                    .refs(List.of(RefSpec.cites(SRC).withQuote("seven votes to two"))));
            t.commit();
        }
        assertThat(audit().violations()).isEmpty();
    }

    @Test
    void anUnsignedCommitIsFlagged() throws Exception {
        ObjectId c = assertFact(forge(), "fact-x", "An unsigned but otherwise valid fact.").unsigned().commit();
        assertOnly(c, null, "unsigned");
    }

    @Test
    void aSignatureThatDoesNotMatchTheCommitIsFlagged() throws Exception {
        ObjectId c = assertFact(forge(), "fact-x", "A fact whose message changed after signing.")
                .tamperAfterSigning().commit();
        assertOnly(c, null, "bad-signature");
    }

    @Test
    void aCommitSignedByAKeyTheStoreNeverTrustedIsFlagged() throws Exception {
        new SecretKeyFiles(home().dir()).create(ActorName.of("eve"), "eve@x");
        ObjectId c = assertFact(forge(), "fact-x", "Signed by an outsider.").signedBy("eve").commit();
        assertOnly(c, null, "untrusted-signer");
    }

    @Test
    void anAuthorWhoDidNotSignIsFlagged() throws Exception {
        addKey("bob");
        ObjectId c = assertFact(Forge.by(gitDir(), home(), "bob"), "fact-x", "Bob claims, Alice signs.")
                .signedBy("alice").message("x\n\nPalimpsest-Actor: bob\nPalimpsest-Op: assert\nPalimpsest-Fact: fact-x\n")
                .commit();
        assertOnly(c, null, "identity-mismatch");
    }

    @Test
    void aCommitterOtherThanTheAuthorIsFlagged() throws Exception {
        ObjectId c = assertFact(forge(), "fact-x", "Committed by someone else.").committer("mallory").commit();
        assertOnly(c, null, "identity-mismatch");
    }

    @Test
    void aPinToACommitOutsideTheAncestryIsFlagged() throws Exception {
        ObjectId side = assertFact(forge(), "side", "A commit on no branch.").commit(false);
        ObjectId c = assertFact(forge(), "fact-x", "cites a side commit",
                new Ref(SRC, RefRole.CITES, CommitId.of(side.name()), BlobId.of(srcBlob), null)).commit();
        assertOnly(c, factPath("fact-x"), "pin-not-ancestor");
    }

    @Test
    void aPinToAnUnknownCommitIsFlagged() throws Exception {
        ObjectId c = assertFact(forge(), "fact-x", "cites nothing real",
                new Ref(SRC, RefRole.CITES, CommitId.of("1234567890123456789012345678901234567890"), BlobId.of(srcBlob),
                        null)).commit();
        assertOnly(c, factPath("fact-x"), "pin-unknown");
    }

    @Test
    void aPinWhoseBlobIsNotTheTargetsVersionIsFlagged() throws Exception {
        ObjectId c = assertFact(forge(), "fact-x", "cites a made-up version",
                new Ref(SRC, RefRole.CITES, srcCommit, BlobId.of("1234567890123456789012345678901234567890"), null))
                .commit();
        assertOnly(c, factPath("fact-x"), "pin-mismatch");
    }

    @Test
    void aPinToACommitThatDidNotWriteTheVersionIsFlagged() throws Exception {
        CommitId later = CommitId.of(main().name());
        ObjectId c = assertFact(forge(), "fact-x", "pins the right blob at the wrong commit",
                new Ref(SRC, RefRole.CITES, later, BlobId.of(srcBlob), null)).commit();
        assertOnly(c, factPath("fact-x"), "pin-mismatch");
    }

    @Test
    void aQuoteNotInThePinnedVersionIsFlagged() throws Exception {
        ObjectId c = assertFact(forge(), "fact-x", "misquotes",
                new Ref(SRC, RefRole.CITES, srcCommit, BlobId.of(srcBlob), "approved unanimously by all")).commit();
        assertOnly(c, factPath("fact-x"), "quote-not-found");
    }

    @Test
    void aQuoteShorterThanTheMinimumIsFlagged() throws Exception {
        ObjectId c = assertFact(forge(), "fact-x", "quotes two words",
                new Ref(SRC, RefRole.CITES, srcCommit, BlobId.of(srcBlob), "seven votes")).commit();
        assertOnly(c, factPath("fact-x"), "quote-too-short");
    }

    @Test
    void anUnpinnedRefToAFactNotAssertedInTheSameCommitIsFlagged() throws Exception {
        ObjectId c = assertFact(forge(), "fact-x", "unpinned", new Ref(SRC, RefRole.CITES, null, null, null)).commit();
        assertOnly(c, factPath("fact-x"), "unpinned-ref");
    }

    @Test
    void aRevisionThatDropsACarriedRefIsFlagged() throws Exception {
        Fact revised = new Fact(CLAIM, Kind.CLAIM, "The vote was close; the ref is gone.", null, List.of());
        ObjectId c = forge().put(factPath(CLAIM.value()), FactCodec.encode(revised))
                .trailers("alice", "revise", "Palimpsest-Fact", CLAIM.value()).commit();
        assertOnly(c, factPath(CLAIM.value()), "refs-rewritten");
    }

    @Test
    void aFactAtAPathThatIsNotItsCanonicalPathIsFlagged() throws Exception {
        Fact f = new Fact(FactId.of("fact-x"), Kind.CLAIM, "misplaced", null, List.of());
        String wrong = StorePaths.factPath(Kind.SOURCE, FactId.of("fact-x"));
        ObjectId c = forge().put(wrong, FactCodec.encode(f)).trailers("alice", "assert", "Palimpsest-Fact", "fact-x")
                .commit();
        assertOnly(c, wrong, "wrong-path");
    }

    @Test
    void aFactFileNotInCanonicalFormIsFlagged() throws Exception {
        ObjectId c = forge().put(factPath("fact-x"), "id: fact-x\nkind: claim\nbody: unquoted\n")
                .trailers("alice", "assert", "Palimpsest-Fact", "fact-x").commit();
        assertOnly(c, factPath("fact-x"), "malformed-file");
    }

    @Test
    void aFileOutsideTheLayoutIsFlaggedAndUnexplained() throws Exception {
        ObjectId c = forge().put("README.md", "hello").trailers("alice").commit();
        assertThat(rules(c)).containsExactlyInAnyOrder("unexpected-path", "unexplained-change", "bad-trailers");
    }

    @Test
    void trailersThatNameAnotherFactThanTheOneChangedAreFlagged() throws Exception {
        Fact f = new Fact(FactId.of("fact-x"), Kind.CLAIM, "the real change", null, List.of());
        ObjectId c = forge().put(factPath("fact-x"), FactCodec.encode(f))
                .trailers("alice", "assert", "Palimpsest-Fact", "fact-y").commit();
        assertThat(rules(c)).containsExactlyInAnyOrder("trailer-mismatch", "unexplained-change");
    }

    @Test
    void aRetractionRecordWithoutTheFileRemovalIsFlagged() throws Exception {
        RetractionRecord rec = new RetractionRecord(new FactVersion(SRC, srcCommit, BlobId.of(srcBlob)), "because",
                ALICE);
        String record = StorePaths.retractionPath(SRC);
        ObjectId c = forge().put(record, FactCodec.encode(rec)).trailers("alice", "retract", "Palimpsest-Fact", "src-1")
                .commit();
        assertThat(violations(c)).extracting(v -> v.rule().id()).containsExactlyInAnyOrder(
                "retraction-inconsistent", "trailer-mismatch");
        assertThat(violations(c)).filteredOn(v -> v.rule().id().equals("retraction-inconsistent"))
                .extracting(AuditViolation::path).containsExactly(record);
    }

    @Test
    void aKeyReplacedInPlaceIsUnexplained() throws Exception {
        String other = OpenPgpKeys.armor(OpenPgpKeys.publicRing(OpenPgpKeys.generate("x", "x@y", new java.util.Date())));
        ObjectId c = forge().put("keys/alice.asc", other).trailers("alice").commit();
        assertThat(rules(c)).contains("unexplained-change", "invalid-key");
    }

    @Test
    void aKeyRecordThatDisagreesWithItsKeyIsFlagged() throws Exception {
        TrustedKey dave = TrustedKey.of(OpenPgpKeys.publicRing(OpenPgpKeys.generate("dave", "d@x", new java.util.Date())));
        String aliceFingerprint = TrustedKey.parse(new String(readMain("keys/alice.asc"),
                java.nio.charset.StandardCharsets.US_ASCII)).fingerprint();
        ObjectId c = forge().put("keys/dave.asc", dave.armored())
                .put("keys/dave.yaml", KeyCodec.encode(new ActorKey(ActorName.of("dave"), KeyRole.AGENT, aliceFingerprint)))
                .trailers("alice", "key-add", "Palimpsest-Key", "dave").commit();
        assertOnly(c, "keys/dave.yaml", "invalid-key");
    }

    @Test
    void aSecondSupersessionOfATargetALiveFactSupersedesIsFlagged() throws Exception {
        CommitId first;
        try (Store s = Store.open(gitDir(), home(), dev.palimpsest.model.StoreOptions.defaults().withFsync(false))) {
            Transaction t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "The vote was seven to two.").id(FactId.of("fix-1"))
                    .refs(List.of(RefSpec.of(CLAIM, RefRole.SUPERSEDES))));
            first = t.commit().id();
        }
        FactVersion v;
        try (Store s = Store.open(gitDir(), home(), dev.palimpsest.model.StoreOptions.defaults().withFsync(false))) {
            v = s.factExistsAt(CLAIM, first).version();
        }
        Ref again = new Ref(CLAIM, RefRole.SUPERSEDES, v.commit(), v.blob(), null, null);
        ObjectId c = assertFact(forge(), "fix-2", "The vote was eight to one.", again).commit();
        assertOnly(c, factPath("fix-2"), "already-superseded");
    }

    @Test
    void aHandMadeMergeCommitIsNotTheConvergentMergeOfItsParents() throws Exception {
        ObjectId side = assertFact(forge(), "side", "A commit on a side line.").commit(false);
        ObjectId c = forge().parents(main(), side).trailers("alice").commit();
        assertThat(rules(c)).isNotEmpty().containsOnly("merge-mismatch");
    }

    private Forge forge() {
        return Forge.by(gitDir(), home(), "alice");
    }

    private static Forge assertFact(Forge f, String id, String body, Ref... refs) {
        Fact fact = new Fact(FactId.of(id), Kind.CLAIM, body, null, List.of(refs));
        return f.put(factPath(id), FactCodec.encode(fact)).trailers("alice", "assert", "Palimpsest-Fact", id);
    }

    private static String factPath(String id) {
        return StorePaths.factPath(Kind.CLAIM, FactId.of(id));
    }

    private void addKey(String actor) throws Exception {
        String key = OpenPgpKeys.armor(OpenPgpKeys.publicRing(new SecretKeyFiles(home().dir()).create(ActorName.of(actor),
                actor + "@palimpsest.local")));
        try (Store s = Store.open(gitDir(), home(), dev.palimpsest.model.StoreOptions.defaults().withFsync(false))) {
            s.begin(ALICE).addKey(ActorName.of(actor), key, KeyRole.AGENT).commit();
        }
    }

    private void assertOnly(ObjectId commit, String path, String rule) throws Exception {
        List<AuditViolation> vs = violations(commit);
        assertThat(vs).as(vs.toString()).hasSize(1);
        assertThat(vs.get(0).rule().id()).isEqualTo(rule);
        assertThat(vs.get(0).path()).isEqualTo(path);
        assertThat(vs.get(0).message()).isNotBlank();
    }

    private List<String> rules(ObjectId commit) throws Exception {
        return violations(commit).stream().map(v -> v.rule().id()).toList();
    }

    /** Audits all of main; every violation must be in {@code commit}. */
    private List<AuditViolation> violations(ObjectId commit) throws Exception {
        AuditReport r = audit();
        assertThat(r.violations()).allMatch(v -> v.commit().hex().equals(commit.name()), "all in the forged commit");
        return r.violations();
    }

    private byte[] readMain(String path) throws Exception {
        try (org.eclipse.jgit.lib.Repository r = new org.eclipse.jgit.storage.file.FileRepositoryBuilder()
                .setGitDir(gitDir().toFile()).build(); Reading reading = new Reading(r.newObjectReader())) {
            ObjectId tree = reading.treeOf(main());
            return reading.bytes(reading.blobAt(tree, path), org.eclipse.jgit.lib.Constants.OBJ_BLOB);
        }
    }

    private ObjectId main() throws Exception {
        try (Auditor a = Auditor.open(gitDir())) {
            return ObjectId.fromString(a.resolve("main").hex());
        }
    }

    private AuditReport audit() throws Exception {
        try (Auditor a = Auditor.open(gitDir())) {
            return a.audit(AuditProgress.none());
        }
    }

    private KeyHome home() {
        return new KeyHome(dir.resolve("home"));
    }

    private Path gitDir() {
        return dir.resolve("store.git");
    }
}
