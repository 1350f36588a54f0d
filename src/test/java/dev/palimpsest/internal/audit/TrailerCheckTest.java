package dev.palimpsest.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Rule;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TreeFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trailers against the changed paths, on crafted commits: which rule, which path, which words. */
class TrailerCheckTest {
    private static final ObjectId TREE = ObjectId.fromString("4b825dc642cb6eb9a060e54bf8d69288fbee4904");
    private static final ObjectId PARENT = ObjectId.fromString("1111111111111111111111111111111111111111");
    private static final ObjectId OLD = ObjectId.fromString("2222222222222222222222222222222222222222");
    private static final ObjectId NEW = ObjectId.fromString("3333333333333333333333333333333333333333");
    private static final FactId SX = FactId.of("sx");
    private static final List<String> SX_FILES = StorePaths.candidatePaths(SX);

    @TempDir
    Path dir;

    @Test
    void aFactFileChangedTheWrongWayIsNamedWithHowItChanged() {
        assertThat(check(false, List.of(added(SX_FILES.get(1))), "Palimpsest-Op: revise", "Palimpsest-Fact: sx"))
                .contains(v(SX_FILES.get(1), Rule.TRAILER_MISMATCH,
                        "operation 'revise sx' says the fact's file was modified, but it was added"));
        assertThat(check(false, List.of(modified(SX_FILES.get(2))), "Palimpsest-Op: retract", "Palimpsest-Fact: sx"))
                .contains(v(SX_FILES.get(2), Rule.TRAILER_MISMATCH,
                        "operation 'retract sx' says the fact's file was removed, but it was modified"));
        assertThat(check(false, List.of(removed(SX_FILES.get(3))), "Palimpsest-Op: assert", "Palimpsest-Fact: sx"))
                .contains(v(SX_FILES.get(3), Rule.TRAILER_MISMATCH,
                        "operation 'assert sx' says the fact's file was added, but it was removed"));
    }

    @Test
    void aSupersedeAccountsForTheFactFileItAddsAsAnAssertDoes() {
        assertThat(check(false, List.of(added(SX_FILES.get(1))), "Palimpsest-Op: supersede", "Palimpsest-Fact: sx"))
                .isEmpty();
        assertThat(check(false, List.of(added(SX_FILES.get(1)), removed(StorePaths.retractionPath(SX))),
                "Palimpsest-Op: supersede", "Palimpsest-Fact: sx")).as("a re-added id drops its retraction record")
                .isEmpty();
    }

    @Test
    void aSupersedeNamingAFactTheCommitDoesNotAddIsAMismatch() {
        assertThat(check(false, List.of(added("facts/other.yaml")), "Palimpsest-Op: supersede", "Palimpsest-Fact: sx"))
                .containsExactly(
                        v(SX_FILES.get(0), Rule.TRAILER_MISMATCH,
                                "operation 'supersede sx' says the fact's file was added, but the commit does not change it"),
                        v("facts/other.yaml", Rule.UNEXPLAINED_CHANGE,
                                "the file was added but no Palimpsest-Op trailer accounts for it"));
        assertThat(check(false, List.of(modified(SX_FILES.get(1))), "Palimpsest-Op: supersede", "Palimpsest-Fact: sx"))
                .contains(v(SX_FILES.get(1), Rule.TRAILER_MISMATCH,
                        "operation 'supersede sx' says the fact's file was added, but it was modified"));
        assertThat(check(false, List.of(), "Palimpsest-Op: supersede", "Palimpsest-Key: bob")).containsExactly(
                v(null, Rule.BAD_TRAILERS,
                        "operation 'supersede bob' has subject trailer Palimpsest-Key, which is not a valid subject for it"));
    }

    @Test
    void aFactFileTheCommitDoesNotChangeIsNamedByItsFirstFolder() {
        assertThat(check(false, List.of(), "Palimpsest-Op: revise", "Palimpsest-Fact: sx"))
                .containsExactly(v(SX_FILES.get(0), Rule.TRAILER_MISMATCH,
                        "operation 'revise sx' says the fact's file was modified, but the commit does not change it"));
    }

    @Test
    void aKeyFileNotAddedOrNotRemovedIsNamed() {
        ActorName bob = ActorName.of("bob");
        assertThat(check(false, List.of(modified(StorePaths.keyInfoPath(bob))), "Palimpsest-Op: key-add",
                "Palimpsest-Key: bob")).containsExactly(
                        v(StorePaths.keyPath(bob), Rule.TRAILER_MISMATCH,
                                "operation 'key-add bob' says this file was added, but the commit does not change it"),
                        v(StorePaths.keyInfoPath(bob), Rule.TRAILER_MISMATCH,
                                "operation 'key-add bob' says this file was added, but it was modified"),
                        v(StorePaths.keyInfoPath(bob), Rule.UNEXPLAINED_CHANGE,
                                "the file was modified but no Palimpsest-Op trailer accounts for it"));
        assertThat(check(false, List.of(removed(StorePaths.keyPath(bob))), "Palimpsest-Op: key-revoke",
                "Palimpsest-Key: bob")).containsExactly(
                        v(StorePaths.keyInfoPath(bob), Rule.TRAILER_MISMATCH,
                                "operation 'key-revoke bob' says this file was removed, but the commit does not change it"));
    }

    @Test
    void aConfigurationNotRewrittenIsNamed() {
        assertThat(check(false, List.of(added(StorePaths.CONFIG)), "Palimpsest-Op: configure",
                "Palimpsest-Config: " + StorePaths.CONFIG)).containsExactly(
                        v(StorePaths.CONFIG, Rule.TRAILER_MISMATCH,
                                "operation 'configure palimpsest.yaml' says this file was rewritten, but it was added"),
                        v(StorePaths.CONFIG, Rule.UNEXPLAINED_CHANGE,
                                "the file was added but no Palimpsest-Op trailer accounts for it"));
        assertThat(check(false, List.of(modified(StorePaths.CONFIG)), "Palimpsest-Op: configure",
                "Palimpsest-Config: " + StorePaths.CONFIG)).isEmpty();
    }

    @Test
    void changesNoOperationAccountsForAreUnexplainedInTheirOwnWords() {
        assertThat(check(false, List.of(added("a"), modified("b"), removed("c")), "Palimpsest-Op: configure",
                "Palimpsest-Config: " + StorePaths.CONFIG)).extracting(AuditViolation::path, AuditViolation::message)
                .contains(Tuple.tuple("a", "the file was added but no Palimpsest-Op trailer accounts for it"),
                        Tuple.tuple("b", "the file was modified but no Palimpsest-Op trailer accounts for it"),
                        Tuple.tuple("c", "the file was removed but no Palimpsest-Op trailer accounts for it"));
    }

    @Test
    void aSubjectUnderAnotherVerbsKeyIsNoValidSubject() {
        assertThat(check(false, List.of(), "Palimpsest-Op: key-add", "Palimpsest-Fact: sx")).containsExactly(
                v(null, Rule.BAD_TRAILERS,
                        "operation 'key-add sx' has subject trailer Palimpsest-Fact, which is not a valid subject for it"));
        assertThat(check(false, List.of(), "Palimpsest-Op: key-add", "Palimpsest-Key: not a name!")).containsExactly(
                v(null, Rule.BAD_TRAILERS, "operation 'key-add not a name!' has subject trailer Palimpsest-Key,"
                        + " which is not a valid subject for it"));
        assertThat(check(false, List.of(), "Palimpsest-Op: assert", "Palimpsest-Key: bob")).containsExactly(
                v(null, Rule.BAD_TRAILERS,
                        "operation 'assert bob' has subject trailer Palimpsest-Key, which is not a valid subject for it"));
        assertThat(check(false, List.of(), "Palimpsest-Op: configure", "Palimpsest-Fact: sx")).containsExactly(
                v(null, Rule.BAD_TRAILERS,
                        "operation 'configure sx' has subject trailer Palimpsest-Fact, which is not a valid subject for it"));
        assertThat(check(false, List.of(), "Palimpsest-Op: configure", "Palimpsest-Config: other.yaml")).containsExactly(
                v(null, Rule.BAD_TRAILERS, "operation 'configure other.yaml' has subject trailer Palimpsest-Config,"
                        + " which is not a valid subject for it"));
    }

    @Test
    void anOperationWithoutItsSubjectIsReportedNotRead() {
        assertThat(check(false, List.of(), "Palimpsest-Op: assert")).containsExactly(v(null, Rule.BAD_TRAILERS,
                "trailer 'Palimpsest-Op: assert' is not a Palimpsest-Op followed by its subject"));
    }

    @Test
    void badlyOrderedOrRepeatedTrailersAreReported() {
        assertThat(check(false, List.of(modified(StorePaths.CONFIG)), "Palimpsest-Op: configure",
                "Palimpsest-Config: " + StorePaths.CONFIG, "Palimpsest-Run: r1")).contains(v(null, Rule.BAD_TRAILERS,
                        "trailer 'Palimpsest-Run: r1' is not a valid run right after Palimpsest-Actor"));
        assertThat(messageCheck(false, List.of(modified(StorePaths.CONFIG)), "Palimpsest-Op: configure\n"
                + "Palimpsest-Config: " + StorePaths.CONFIG)).containsExactly(v(null, Rule.BAD_TRAILERS,
                        "the first trailer is Palimpsest-Op, not Palimpsest-Actor"));
        assertThat(check(false, List.of(modified(StorePaths.CONFIG)), "Palimpsest-Op: configure",
                "Palimpsest-Config: " + StorePaths.CONFIG, "Palimpsest-Op: configure",
                "Palimpsest-Config: " + StorePaths.CONFIG)).containsExactly(v(null, Rule.TRAILER_MISMATCH,
                        "palimpsest.yaml is the subject of more than one operation"));
        assertThat(messageCheck(false, List.of(), "Other: x")).containsExactly(v(null, Rule.BAD_TRAILERS,
                "the message has no Palimpsest trailers"));
    }

    @Test
    void runsAreValidOnlyRightAfterTheActor() {
        String config = "Palimpsest-Config: " + StorePaths.CONFIG;
        List<Change> rewritten = List.of(modified(StorePaths.CONFIG));
        assertThat(check(false, rewritten, "Palimpsest-Run: r1", "Palimpsest-Run: r2", "Palimpsest-Op: configure", config))
                .isEmpty();
        assertThat(check(false, rewritten, "Palimpsest-Run: -bad", "Palimpsest-Op: configure", config)).containsExactly(
                v(null, Rule.BAD_TRAILERS, "trailer 'Palimpsest-Run: -bad' is not a valid run right after Palimpsest-Actor"));
        assertThat(messageCheck(false, rewritten, "Palimpsest-Op: configure\nPalimpsest-Run: r1\n" + config))
                .contains(v(null, Rule.BAD_TRAILERS,
                        "trailer 'Palimpsest-Run: r1' is not a valid run right after Palimpsest-Actor"));
    }

    @Test
    void onlyTheGenesisCommitInitsAndItDoesNothingElse() {
        assertThat(check(false, List.of(), "Palimpsest-Op: init", "Palimpsest-Key: alice")).containsExactly(
                v(null, Rule.TRAILER_MISMATCH, "operation 'init alice' outside the genesis commit"));
        assertThat(check(true, List.of(), "Palimpsest-Op: assert", "Palimpsest-Fact: sx")).containsExactly(
                v(null, Rule.TRAILER_MISMATCH, "operation 'assert sx' in the genesis commit, which may only init"));
    }

    @Test
    void aForgetThatLeavesTheFactsFileInTheTreeIsReportedAndAnUnreadableParentTreeToo() throws Exception {
        String file = SX_FILES.get(2);
        try (Repository repo = new FileRepository(dir.resolve("r.git").toFile())) {
            repo.create(true);
            ObjectId parentTree;
            try (ObjectInserter ins = repo.newObjectInserter()) {
                parentTree = ins.insert(Constants.OBJ_BLOB, "fact".getBytes(StandardCharsets.UTF_8));
                String[] names = file.split("/");
                for (int k = names.length - 1; k >= 0; k--) {
                    TreeFormatter f = new TreeFormatter();
                    f.append(names[k], k == names.length - 1 ? FileMode.REGULAR_FILE : FileMode.TREE, parentTree);
                    parentTree = ins.insert(f);
                }
                ins.flush();
            }
            List<Change> tombstone = List.of(added(StorePaths.tombstonePath(SX)));
            try (Reading reading = new Reading(repo.newObjectReader())) {
                assertThat(check(parentTree, reading, tombstone, "Palimpsest-Op: forget", "Palimpsest-Fact: sx"))
                        .containsExactly(v(file, Rule.TRAILER_MISMATCH,
                                "operation 'forget sx' leaves the forgotten fact's file in the tree"));
                assertThat(check(OLD, reading, tombstone, "Palimpsest-Op: forget", "Palimpsest-Fact: sx"))
                        .extracting(AuditViolation::path, AuditViolation::rule).containsExactly(Tuple.tuple(null, Rule.UNREADABLE));
            }
        }
    }

    private static List<AuditViolation> check(ObjectId parentTree, Reading reading, List<Change> changes,
            String... trailers) {
        return run(false, parentTree, reading, changes, "Palimpsest-Actor: alice\n" + String.join("\n", trailers));
    }

    private static List<AuditViolation> check(boolean genesis, List<Change> changes, String... trailers) {
        return messageCheck(genesis, changes, "Palimpsest-Actor: alice\n" + String.join("\n", trailers));
    }

    private static List<AuditViolation> messageCheck(boolean genesis, List<Change> changes, String trailers) {
        return run(genesis, null, null, changes, trailers);
    }

    private static List<AuditViolation> run(boolean genesis, ObjectId parentTree, Reading reading, List<Change> changes,
            String trailers) {
        String raw = "tree " + TREE.name() + "\n" + (genesis ? "" : "parent " + PARENT.name() + "\n")
                + "author alice <alice@example.org> 1700000000 +0000\n"
                + "committer alice <alice@example.org> 1700000000 +0000\n\nsubject\n\n" + trailers + "\n";
        AuditRun run = new AuditRun(List.of(), null, Map.of(), null, null);
        AuditedCommit c = new AuditedCommit(run, NEW, RawCommit.parse(raw.getBytes(StandardCharsets.UTF_8)),
                parentTree, changes, reading);
        new TrailerCheck().check(c);
        return c.violations();
    }

    private static AuditViolation v(String path, Rule rule, String message) {
        return new AuditViolation(dev.palimpsest.model.CommitId.of(NEW.name()), path, rule, message);
    }

    private static Change added(String path) {
        return new Change(path, null, NEW, 0100644);
    }

    private static Change modified(String path) {
        return new Change(path, OLD, NEW, 0100644);
    }

    private static Change removed(String path) {
        return new Change(path, OLD, null, 0);
    }
}
