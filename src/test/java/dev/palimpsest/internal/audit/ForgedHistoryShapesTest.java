package dev.palimpsest.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.Rule;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Forged histories whose findings span more than one commit: an unrelated merge, a tree that trusts no key. */
class ForgedHistoryShapesTest {
    @TempDir
    Path dir;

    @Test
    void aMergeOfAnUnrelatedHistoryIsAMergeMismatch() throws Exception {
        ForgedCases.Store s = GateHistory.write(dir);
        ObjectId root = unrelatedRoot(s);
        ObjectId merge = s.forge().parents(s.main(), root).trailers("alice").commit();
        List<AuditViolation> vs = GateHistory.in(s, merge);
        assertThat(vs).as(vs.toString()).anyMatch(v -> v.rule() == Rule.MERGE_MISMATCH
                && v.message().startsWith("a merge of two unrelated histories"));
    }

    @Test
    void aCommitAfterEveryKeyWasRemovedIsSignedByAnUntrustedKey() throws Exception {
        ForgedCases.Store s = GateHistory.write(dir);
        s.forge().remove("keys/alice.asc").remove("keys/alice.yaml").trailers("alice").commit();
        ObjectId after = s.forge().trailers("alice").commit();
        assertThat(GateHistory.rulesAt(s, after)).contains("untrusted-signer null");
    }

    /** A parentless commit of main's tree, written beside main's history. */
    private static ObjectId unrelatedRoot(ForgedCases.Store s) throws Exception {
        try (Repository r = new FileRepositoryBuilder().setGitDir(s.gitDir().toFile()).setMustExist(true).build();
                ObjectInserter ins = r.newObjectInserter();
                RevWalk w = new RevWalk(r)) {
            CommitBuilder cb = new CommitBuilder();
            cb.setTreeId(w.parseCommit(s.main()).getTree());
            PersonIdent alice = new PersonIdent("alice", "alice@palimpsest.local", Instant.now(), java.time.ZoneOffset.UTC);
            cb.setAuthor(alice);
            cb.setCommitter(alice);
            cb.setMessage("an unrelated root\n");
            cb.setEncoding(StandardCharsets.UTF_8);
            ObjectId id = ins.insert(cb);
            ins.flush();
            return id;
        }
    }
}
