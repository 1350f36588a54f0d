package dev.palimpsest.internal.vault;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.forget.Scrub;
import dev.palimpsest.model.FactId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key vault's files, its cache across processes, and the intents of forgets in flight. */
class VaultTest {
    private static final FactId A = FactId.of("a");
    private static final FactId B = FactId.of("b");

    @TempDir
    Path gitDir;

    @Test
    void aKeyIsCreatedOnceOwnerOnlyAndReadBackByAnotherInstance() throws Exception {
        Vault v = new Vault(gitDir, true);
        assertThat(v.key(A)).isNull();
        assertThat(v.holds(A)).isFalse();
        byte[] k = v.keyOrCreate(A);
        assertThat(k).hasSize(Vault.KEY_BYTES);
        assertThat(v.keyOrCreate(A)).isEqualTo(k);
        assertThat(v.holds(A)).isTrue();
        assertThat(v.file(A)).startsWith(v.root()).hasFileName("a.key");
        assertThat(Files.readAllBytes(v.file(A))).isEqualTo(k);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(v.file(A)))).isEqualTo("rw-------");
        for (Path d = v.file(A).getParent(); !d.equals(gitDir); d = d.getParent()) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(d))).as(d.toString()).isEqualTo("rwx------");
        }
        assertThat(new Vault(gitDir, false).key(A)).isEqualTo(k);
        assertThat(v.keyOrCreate(B)).isNotEqualTo(k);
        byte[] copy = v.key(A);
        copy[0] ^= 1;
        assertThat(v.key(A)).as("a caller cannot change the cached key").isEqualTo(k);
    }

    @Test
    void destroyDeletesTheKeyOnceAndAnotherInstanceNoLongerServesItsCachedCopy() {
        Vault writer = new Vault(gitDir, true);
        Vault reader = new Vault(gitDir, false);
        writer.keyOrCreate(A);
        assertThat(reader.key(A)).isNotNull();
        assertThat(writer.destroy(A)).isTrue();
        assertThat(writer.destroy(A)).isFalse();
        assertThat(writer.holds(A)).isFalse();
        assertThat(reader.key(A)).as("destroyed by another process").isNull();
        assertThat(writer.destroy(B)).isFalse();
    }

    @Test
    void aKeyWrittenByAnotherInstanceAfterThisOneMissedOrDestroyedItIsReadAfresh() throws Exception {
        Vault v = new Vault(gitDir, false);
        Vault other = new Vault(gitDir, false);
        assertThat(v.key(B)).isNull();
        byte[] b = other.keyOrCreate(B);
        assertThat(v.key(B)).isEqualTo(b);
        byte[] first = v.keyOrCreate(A);
        assertThat(v.destroy(A)).isTrue();
        byte[] second = other.keyOrCreate(A);
        assertThat(second).isNotEqualTo(first);
        assertThat(v.key(A)).isEqualTo(second);
        Files.write(v.file(A), new byte[] {1, 2, 3});
        assertThat(new Vault(gitDir, false).key(A)).as("a key file of the wrong length holds no key").isNull();
        assertThat(v.holds(A)).isTrue();
    }

    @Test
    void anIntentIsOrphanedOnlyOnceItsHolderLetsGoAndIsGoneWhenDone() throws Exception {
        Vault v = new Vault(gitDir, true);
        assertThat(v.orphanedIntents()).isEmpty();
        Vault.Intent live = v.intendForget();
        assertThat(live.file()).exists().hasParent(v.root().resolve(Vault.INTENTS));
        assertThat(live.file().getFileName().toString()).startsWith(ProcessHandle.current().pid() + "-").endsWith(".intent");
        assertThat(v.orphanedIntents()).as("held by a forget in flight").isEmpty();
        live.release();
        assertThat(live.file()).as("a dead process leaves its intent").exists();
        var orphans = v.orphanedIntents();
        assertThat(orphans).extracting(Vault.Intent::file).containsExactly(live.file());
        assertThat(new Vault(gitDir, false).orphanedIntents()).as("taken by the first look").isEmpty();
        orphans.get(0).done();
        assertThat(live.file()).doesNotExist();
        assertThat(v.orphanedIntents()).isEmpty();
        Vault.Intent finished = v.intendForget();
        finished.done();
        assertThat(finished.file()).doesNotExist();
        assertThat(v.orphanedIntents()).isEmpty();
    }

    @Test
    void anIntentReleasedOrDoneKeepsNoDescriptorOpen() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "Linux: open descriptors are listed");
        Vault v = new Vault(gitDir, false);
        Vault.Intent released = v.intendForget();
        assertThat(openOn(released.file())).isPositive();
        released.release();
        assertThat(openOn(released.file())).isZero();
        Vault.Intent orphan = v.orphanedIntents().get(0);
        Vault.Intent done = v.intendForget();
        orphan.done();
        done.done();
        assertThat(openOn(released.file())).isZero();
        assertThat(openOn(done.file())).isZero();
    }

    /** How many descriptors of this process are open on {@code file} (also once it is deleted). */
    private static long openOn(Path file) throws Exception {
        long n = 0;
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    n += Files.readSymbolicLink(fd).toString().startsWith(file.toString()) ? 1 : 0;
                } catch (java.nio.file.NoSuchFileException e) {
                    // the listing's own descriptor, closed since
                }
            }
        }
        return n;
    }

    @Test
    void scrubDeletesEveryPlaintextCacheAndNamesWhatItDeleted() throws Exception {
        Path idx = Files.createDirectories(gitDir.resolve("palimpsest-index"));
        Files.createDirectories(idx.resolve("search-v1")).resolve("segments_1").toFile().createNewFile();
        for (String f : new String[] {"claims-v1.log", "claims-v1.log.123.tmp", "entail-v1.state", "judge-cache.jsonl",
                "index-v1.log", "receipts-v1.log"}) {
            Files.writeString(idx.resolve(f), "x");
        }
        assertThat(Scrub.caches(gitDir)).containsExactlyInAnyOrder("palimpsest-index/search-v1",
                "palimpsest-index/claims-v1.log", "palimpsest-index/claims-v1.log.123.tmp",
                "palimpsest-index/entail-v1.state", "palimpsest-index/judge-cache.jsonl");
        try (var left = Files.list(idx)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no plaintext: kept")
                    .containsExactlyInAnyOrder("index-v1.log", "receipts-v1.log");
        }
        assertThat(Scrub.caches(gitDir)).isEmpty();
    }

    @Test
    void scrubOfAStoreWithoutCachesDeletesNothing() {
        assertThat(Scrub.caches(gitDir)).isEmpty();
        assertThat(gitDir.resolve("palimpsest-index")).doesNotExist();
    }
}
