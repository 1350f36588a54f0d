package dev.palimpsest.it;

import static dev.palimpsest.it.HookedOrigin.trailers;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.palimpsest.cli.Main;
import dev.palimpsest.cli.Run;
import dev.palimpsest.internal.crypto.TrustedKey;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.KeyCodec;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Limits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hardening cases made with the real git and gpg against a store served with the pre-receive hook:
 * each tampered commit is signed by a trusted key, flagged by {@code palimpsest audit} with its rule
 * (never an internal error) and refused on push, leaving the origin unchanged.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HardeningPushTest {
    @TempDir
    static Path tmp;

    private HookedOrigin origin;

    @BeforeAll
    void serveAStore() throws Exception {
        origin = HookedOrigin.serve(tmp, FactSpec.of(Kind.CLAIM, "A first fact.").id(FactId.of("first")));
    }

    @AfterAll
    void stopGpgAgent() {
        origin.close();
    }

    @Test
    void aSignedCommitAddingAnOversizeFactIsShownButIsATooLargeViolationOfThatCommitAndIsRefused() throws Exception {
        Path work = origin.cloneWork();
        String id = "oversize";
        Path file = work.resolve(StorePaths.factPath(Kind.CLAIM, FactId.of(id)));
        Files.createDirectories(file.getParent());
        String body = "w".repeat(3 * Limits.MAX_FILE + 1);
        Files.write(file, FactCodec.encode(new Fact(FactId.of(id), Kind.CLAIM, body, null, List.of())));
        commit(work, trailers("assert", id));
        Run show = Run.of("show", id, "--store", work.resolve(".git").toString(), "--json");
        assertThat(show.code()).as("a file written before the limits is still shown: " + show.err()).isZero();
        assertThat(show.json().get("body").asText()).isEqualTo(body);
        String path = StorePaths.factPath(Kind.CLAIM, FactId.of(id));
        JsonNode v = flaggedAndRefused(work, "too-large");
        assertThat(v.get("path").asText()).isEqualTo(path);
        assertThat(v.get("commit").asText()).isEqualTo(origin.git(work, "rev-parse", "HEAD").ok().stdout().trim());
    }

    @Test
    void aKeyExportedByGpgWithOldFormatSignatureHeadersIsRefusedByTheGateAndFlaggedByTheAudit() throws Exception {
        origin.gpg("--quiet", "--passphrase", "", "--quick-gen-key", "zed <zed@palimpsest.local>", "ed25519", "sign",
                "never");
        String exported = origin.gpg("--armor", "--export", "zed").stdout();
        Path keyFile = tmp.resolve("zed.asc");
        Files.writeString(keyFile, exported);
        Path writer = origin.cloneBare();
        Run add = Run.of("keys", "add", "--store", writer.toString(), "--home", origin.home().dir().toString(),
                "--actor", "alice", "--name", "zed", "--key", keyFile.toString());
        assertThat(add.code()).as(add.err()).isEqualTo(Main.REJECTED);
        assertThat(add.err()).contains("[invalid-key]").contains("canonical framing");

        Path work = origin.cloneWork();
        Files.writeString(work.resolve(StorePaths.keyPath(ActorName.of("zed"))), exported);
        TrustedKey key = TrustedKey.parse(exported);
        Files.write(work.resolve(StorePaths.keyInfoPath(ActorName.of("zed"))),
                KeyCodec.encode(new ActorKey(ActorName.of("zed"), KeyRole.AGENT, key.fingerprint())));
        commit(work, "hand-made commit\n\nPalimpsest-Actor: alice\nPalimpsest-Op: key-add\nPalimpsest-Key: zed\n");
        flaggedAndRefused(work, "invalid-key");
    }

    @Test
    void aFactFileRemovedWithoutARetractionRecordExistsForNeitherExistsNorShow() throws Exception {
        Path work = origin.cloneWork();
        origin.git(work, "rm", "-q", StorePaths.factPath(Kind.CLAIM, FactId.of("first"))).ok();
        commit(work, trailers("retract", "first"));
        String store = work.resolve(".git").toString();
        Run show = Run.of("show", "first", "--store", store);
        Run exists = Run.of("exists", "first", "--store", store);
        assertThat(show.code()).as(show.err()).isEqualTo(Main.NOT_FOUND);
        assertThat(exists.code()).as(exists.out() + exists.err()).isEqualTo(Main.NOT_FOUND);
        Run before = Run.of("exists", "first", "--store", store, "--at", "main~1");
        assertThat(before.code()).as(before.err()).isZero();
        flaggedAndRefused(work, "retraction-inconsistent", "trailer-mismatch");
    }

    /** The working clone's new commit is flagged with exactly these rules (exit 3), and the push is refused. */
    private JsonNode flaggedAndRefused(Path work, String... rules) {
        return origin.flaggedAndRefusedSince(work.resolve(".git"), "origin/main", rules);
    }

    /** {@code git commit} of every change as alice, signed with alice's trusted key through gpg. */
    private void commit(Path work, String message) {
        origin.git(work, "add", "-A").ok();
        Map<String, String> env = new HashMap<>();
        for (String who : List.of("AUTHOR", "COMMITTER")) {
            env.put("GIT_" + who + "_NAME", "alice");
            env.put("GIT_" + who + "_EMAIL", "alice@palimpsest.local");
        }
        origin.git(work, env, "-c", "user.signingkey=" + origin.actorKey(), "commit", "-q", "-S", "-m", message).ok();
    }
}
