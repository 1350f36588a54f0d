package dev.palimpsest.forget;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.SearchQuery;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.InflaterInputStream;
import org.eclipse.jgit.internal.storage.file.PackIndex;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After forget, no file under the git directory holds the plaintext or the data key: raw bytes of
 * every file, every loose object inflated, and every object of every pack (reachable or not).
 */
class ForgetScanTest {
    @TempDir
    Path dir;

    @Test
    void noObjectOrFileHoldsThePlaintextOrTheKeyAfterForget() throws Exception {
        Path git;
        byte[] key;
        try (Store s = TestStores.init(dir)) {
            ForgetTest.writeAB(s);
            git = s.gitDir();
            assertThat(s.recall().search(SearchQuery.builder("Zelda Quixote").build())).isNotEmpty();
            s.claims();
            key = Files.readAllBytes(s.gitDir().resolve("palimpsest-vault").resolve(
                    dev.palimpsest.internal.layout.StorePaths.shard(FactId.of("a"))).resolve("a.key"));
            assertThat(hits(git, key)).as("the scan finds the key while it exists").isNotEmpty();
            s.erasure().forget(ALICE, List.of(FactId.of("a")), "erasure request", false);
            s.erasure().expire(ALICE, ForgetTest.DEADLINE.plusSeconds(1), false);
            assertThat(s.recall().search(SearchQuery.builder("Zelda Quixote").build())).isEmpty();
        }
        for (String secret : new String[] {ForgetTest.SECRET_A, ForgetTest.QUOTE, ForgetTest.SECRET_B, "Zelda"}) {
            assertThat(hits(git, secret.getBytes(StandardCharsets.UTF_8))).as(secret).isEmpty();
        }
        assertThat(hits(git, key)).as("the data key").isEmpty();
    }

    /** Where {@code needle} occurs: raw files, inflated loose objects, and every pack entry. */
    static List<String> hits(Path git, byte[] needle) throws Exception {
        List<String> out = new ArrayList<>();
        try (Stream<Path> all = Files.walk(git)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                byte[] raw = Files.readAllBytes(p);
                if (dev.palimpsest.testing.Bytes.contains(raw, needle)) {
                    out.add(git.relativize(p).toString());
                }
                String rel = git.relativize(p).toString();
                if (rel.matches("objects/[0-9a-f]{2}/[0-9a-f]{38}")) {
                    try (InflaterInputStream in = new InflaterInputStream(Files.newInputStream(p))) {
                        if (dev.palimpsest.testing.Bytes.contains(in.readAllBytes(), needle)) {
                            out.add(rel + " (inflated)");
                        }
                    }
                }
            }
        }
        try (Repository r = new FileRepositoryBuilder().setGitDir(git.toFile()).build();
                Stream<Path> idx = Files.list(git.resolve("objects/pack"))) {
            for (Path i : idx.filter(p -> p.toString().endsWith(".idx")).toList()) {
                for (PackIndex.MutableEntry e : PackIndex.open(i.toFile())) {
                    ObjectId id = e.toObjectId();
                    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                    r.open(id).copyTo(bytes);
                    if (dev.palimpsest.testing.Bytes.contains(bytes.toByteArray(), needle)) {
                        out.add(i.getFileName() + " " + id.name());
                    }
                }
            }
        }
        return out;
    }
}
