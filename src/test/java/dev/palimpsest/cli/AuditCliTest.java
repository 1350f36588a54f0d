package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The keys, audit and hooks commands: output, JSON fields and exit codes as the README documents. */
class AuditCliTest extends CliStoreTest {
    @BeforeEach
    void init() {
        assertThat(cmd("init", "--actor", "alice").code()).isZero();
    }

    @Test
    void keysAddListAndRevokeAndARevokedActorIsRejected() throws Exception {
        Path bobKey = dir.resolve("bob.asc");
        assertThat(cmd("keys", "generate", "--name", "bob", "--out", bobKey.toString()).code()).isZero();
        assertThat(Files.readString(bobKey)).startsWith("-----BEGIN PGP PUBLIC KEY BLOCK-----");
        assertThat(cmd("keys", "generate", "--name", "bob").code()).isEqualTo(Main.REJECTED);

        Run added = cmd("keys", "add", "--actor", "alice", "--name", "bob", "--key", bobKey.toString(), "--json");
        assertThat(added.code()).as(added.err()).isZero();
        assertThat(added.json().get("name").asText()).isEqualTo("bob");
        assertThat(added.json().get("role").asText()).isEqualTo("agent");
        assertThat(added.json().get("fingerprint").asText()).matches("[0-9A-F]{40}");
        assertThat(added.json().get("commit").asText()).matches("[0-9a-f]{40}");

        assertThat(cmd("assert", "--actor", "bob", "--body", "bob writes").code()).isZero();
        JsonNode listed = cmd("keys", "list", "--json").json();
        assertThat(listed).hasSize(2);
        assertThat(listed.get(0).get("name").asText()).isEqualTo("alice");
        assertThat(listed.get(0).get("role").asText()).isEqualTo("human");
        assertThat(listed.get(1).get("fingerprint").asText()).isEqualTo(added.json().get("fingerprint").asText());

        Run revoked = cmd("keys", "revoke", "--actor", "alice", "--name", "bob");
        assertThat(revoked.code()).as(revoked.err()).isZero();
        assertThat(revoked.out()).startsWith("revoked key bob ");
        Run late = cmd("assert", "--actor", "bob", "--body", "too late");
        assertThat(late.code()).isEqualTo(Main.REJECTED);
        assertThat(late.err()).contains("[unknown-actor]");
        assertThat(cmd("keys", "list").out().lines()).hasSize(1);
        assertThat(cmd("keys", "list", "--at", "main~1").out().lines()).hasSize(2);

        Run audit = cmd("audit");
        assertThat(audit.code()).as(audit.out()).isZero();
        assertThat(audit.out().strip()).isEqualTo("audited 4 commits (4 signatures, 6 files, 0 refs): clean");
    }

    @Test
    void auditExitsThreeListingEachViolationAndCounts() throws Exception {
        String unsigned = commitUnsignedEmptyChange();
        Run text = cmd("audit");
        assertThat(text.code()).isEqualTo(Main.AUDIT_VIOLATIONS);
        assertThat(text.out()).contains(unsigned + " (commit): the commit carries no gpgsig signature [unsigned]")
                .contains("audited 2 commits (1 signatures, 3 files, 0 refs): 2 violations in 1 commits"
                        + " (bad-trailers 1, unsigned 1)");
        Run json = cmd("audit", "--json", "--range", "main~1..main");
        assertThat(json.code()).isEqualTo(Main.AUDIT_VIOLATIONS);
        JsonNode r = json.json();
        assertThat(r.get("commits").asInt()).isEqualTo(1);
        assertThat(r.get("clean").asBoolean()).isFalse();
        JsonNode v = r.get("violations").get(0);
        assertThat(v.get("commit").asText()).isEqualTo(unsigned);
        assertThat(v.get("path").isNull()).isTrue();
        assertThat(v.get("rule").asText()).isEqualTo("unsigned");
        assertThat(v.get("message").asText()).isNotBlank();
        assertThat(cmd("audit", "--range", "nosuch..main").code()).isEqualTo(Main.NOT_FOUND);
    }

    @Test
    void hooksInstallWritesAnExecutableHookThatRunsThisPalimpsest() throws Exception {
        Run r = cmd("hooks", "install");
        assertThat(r.code()).as(r.err()).isZero();
        Path hook = Path.of(store, "hooks", "pre-receive");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(hook))).isEqualTo("rwxr-xr-x");
        String text = Files.readString(hook);
        assertThat(text).startsWith("#!/bin/sh\n")
                .contains("\ninstalled_java='" + Path.of(System.getProperty("java.home"), "bin", "java") + "'\n")
                .contains("\ninstalled_classpath='" + System.getProperty("java.class.path") + "'\n");
        assertThat(cmd("hooks", "install").code()).isZero();
        Files.writeString(hook, "#!/bin/sh\nexit 0\n");
        Run refused = cmd("hooks", "install");
        assertThat(refused.code()).isEqualTo(Main.REJECTED);
        assertThat(refused.err()).contains("--force");
        assertThat(cmd("hooks", "install", "--force").code()).isZero();
        assertThat(Files.readString(hook)).isEqualTo(text);
    }

    /** Puts an unsigned commit with main's tree and no trailers on main; returns its id. */
    private String commitUnsignedEmptyChange() throws Exception {
        try (Repository repo = new FileRepositoryBuilder().setGitDir(Path.of(store).toFile()).build();
                ObjectInserter ins = repo.newObjectInserter(); RevWalk walk = new RevWalk(repo)) {
            ObjectId main = repo.resolve(Constants.R_HEADS + "main");
            CommitBuilder cb = new CommitBuilder();
            cb.setTreeId(walk.parseCommit(main).getTree());
            cb.setParentId(main);
            PersonIdent who = new PersonIdent("alice", "alice@palimpsest.local", Instant.now(), ZoneOffset.UTC);
            cb.setAuthor(who);
            cb.setCommitter(who);
            cb.setMessage("nothing\n");
            ObjectId id = ins.insert(cb);
            ins.flush();
            RefUpdate ru = repo.updateRef(Constants.R_HEADS + "main");
            ru.setNewObjectId(id);
            assertThat(ru.update()).isEqualTo(RefUpdate.Result.FAST_FORWARD);
            return id.name();
        }
    }
}
