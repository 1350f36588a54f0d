package dev.palimpsest.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.Repository;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit reads commits and trees as strictly as {@code git fsck --strict}: each object below is
 * written with {@code git hash-object --literally}, and the real git and {@link Reading} agree on
 * it, naming the same fsck message id where JGit's {@code ObjectChecker} alone would let it pass.
 */
class StrictFsckTest {
    private static final String EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    private static final String WHO = "alice <alice@palimpsest.local> 1700000000 +0000";

    @TempDir
    Path dir;

    private Repository repo;

    @BeforeEach
    void repository() throws Exception {
        repo = new FileRepository(dir.resolve("r.git").toFile());
        repo.create(true);
        try (ObjectInserter ins = repo.newObjectInserter()) {
            assertThat(ins.insert(Constants.OBJ_TREE, new byte[0]).name()).isEqualTo(EMPTY_TREE);
            ins.flush();
        }
    }

    private static String commit(String author, String committer, String rest) {
        return "tree " + EMPTY_TREE + "\nauthor " + author + "\ncommitter " + committer + "\n" + rest;
    }

    @Test
    void commitsGitRefusesAreMalformedObjectsNamingGitsMessageId() throws Exception {
        Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("nulInCommit", commit(WHO, WHO, "\nassert x: a\u0000b\n\nPalimpsest-Actor: alice\n"));
        refused.put("nulInHeader", commit(WHO, WHO, "encoding utf\u00008\n\nmessage\n"));
        refused.put("unterminatedHeader", "tree " + EMPTY_TREE + "\nauthor " + WHO + "\ncommitter " + WHO);
        refused.put("missingNameBeforeEmail", commit("<alice@x> 1700000000 +0000", WHO, "\nm\n"));
        refused.put("missingSpaceBeforeEmail", commit("alice<alice@x> 1700000000 +0000", WHO, "\nm\n"));
        refused.put("badName", commit("al>ice <alice@x> 1700000000 +0000", WHO, "\nm\n"));
        refused.put("zeroPaddedDate", commit(WHO, "alice <alice@x> 01700000000 +0000", "\nm\n"));
        refused.put("badDateOverflow", commit("alice <alice@x> 99999999999999999999 +0000", WHO, "\nm\n"));
        refused.put("badTimezone", commit(WHO, "alice <alice@x> 1700000000 0000", "\nm\n"));
        refused.put("multipleAuthors", "tree " + EMPTY_TREE + "\nauthor " + WHO + "\nauthor " + WHO + "\ncommitter "
                + WHO + "\n\nm\n");
        for (Map.Entry<String, String> c : refused.entrySet()) {
            ObjectId id = literally("commit", c.getValue().getBytes(StandardCharsets.UTF_8));
            assertThat(fsck()).as(c.getKey()).contains("error in commit " + id.name() + ": " + c.getKey());
            try (Reading r = new Reading(repo.newObjectReader())) {
                assertThatThrownBy(() -> r.bytes(id, Constants.OBJ_COMMIT)).as(c.getKey())
                        .isInstanceOf(MalformedObjectException.class).hasMessageContaining(id.name())
                        .hasMessageContaining(c.getKey());
            }
            delete(id);
        }
    }

    @Test
    void commitsGitAcceptsAreRead() throws Exception {
        List<String> accepted = List.of(
                commit(WHO, WHO, "gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n"
                        + "\nassert x: escaped \\x00 and \\x1b\n\nPalimpsest-Actor: alice\n"),
                commit(WHO, WHO, "encoding ISO-8859-1\n\nno final line feed"),
                commit("a b <> 0 -0130", "alice <alice@x> 1700000000 +1400", "\n"),
                "tree " + EMPTY_TREE + "\nauthor " + WHO + "\ncommitter " + WHO + "\n");
        for (String c : accepted) {
            ObjectId id = literally("commit", c.getBytes(StandardCharsets.UTF_8));
            assertThat(fsck()).as(c).doesNotContain("error");
            try (Reading r = new Reading(repo.newObjectReader())) {
                assertThat(r.bytes(id, Constants.OBJ_COMMIT)).as(c).isEqualTo(c.getBytes(StandardCharsets.UTF_8));
            }
            delete(id);
        }
    }

    @Test
    void aTreeEntryNamingTheNullIdIsRefusedAsGitRefusesIt() throws Exception {
        byte[] name = "100644 a.yaml\u0000".getBytes(StandardCharsets.UTF_8);
        byte[] raw = java.util.Arrays.copyOf(name, name.length + 20);
        ObjectId tree = literally("tree", raw);
        ObjectId commit = literally("commit", ("tree " + tree.name() + "\nauthor " + WHO + "\ncommitter " + WHO
                + "\n\nm\n").getBytes(StandardCharsets.UTF_8));
        git("update-ref", "refs/heads/main", commit.name());
        assertThat(fsck()).contains("nullSha1");
        try (Reading r = new Reading(repo.newObjectReader())) {
            assertThatThrownBy(() -> r.diff(null, tree)).isInstanceOf(MalformedObjectException.class)
                    .hasMessageContaining("nullSha1");
        }
    }

    private ObjectId literally(String type, byte[] raw) throws Exception {
        return ObjectId.fromString(run(raw, "hash-object", "-t", type, "-w", "--literally", "--stdin").strip());
    }

    private void delete(ObjectId id) throws Exception {
        java.nio.file.Files.delete(dir.resolve("r.git/objects/" + id.name().substring(0, 2) + "/"
                + id.name().substring(2)));
    }

    private String fsck() throws Exception {
        return git("fsck", "--strict", "--no-dangling", "--no-progress");
    }

    private String git(String... args) throws Exception {
        return run(null, args);
    }

    private String run(byte[] stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "--git-dir=" + dir.resolve("r.git")));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        pb.environment().put("GIT_CONFIG_GLOBAL", "/dev/null");
        Process p = pb.start();
        if (stdin != null) {
            p.getOutputStream().write(stdin);
        }
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
