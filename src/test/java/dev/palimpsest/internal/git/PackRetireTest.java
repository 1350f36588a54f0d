package dev.palimpsest.internal.git;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inline pack compaction never deletes a pack while a background merge of another process holds the
 * repack lock (the merge reads every pack it listed): the merged small packs wait, left out of the
 * tiers, and are retired by the first compaction after the lock is free; every fact stays readable
 * and git finds the repository sound throughout.
 */
class PackRetireTest {
    @TempDir
    Path tmp;

    @Test
    void mergedPacksWaitForTheBackgroundMergeAndAreRetiredOnceItEnds() throws Exception {
        try (Store store = TestStores.initLexical(tmp)) {
            Path gitDir = store.gitDir();
            // a background merge of another process: it holds the repack lock until its stdin closes
            Process merge = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), Holder.class.getName(), gitDir.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            java.io.BufferedReader out = new java.io.BufferedReader(
                    new java.io.InputStreamReader(merge.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("held");
            int commits = 3 * PackCompactor.MERGE;
            for (int i = 0; i < commits; i++) {
                write(store, i);
            }
            long whileMerging = packs(gitDir);
            assertThat(whileMerging).as("no pack deleted while the merge runs").isGreaterThanOrEqualTo(commits);
            assertThat(git(gitDir, "fsck", "--strict")).isZero();

            merge.getOutputStream().close();
            assertThat(merge.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(merge.exitValue()).isZero();
            for (int i = commits; i < commits + PackCompactor.MERGE; i++) {
                write(store, i); // the writer compacts every MERGE commits
            }
            long after = packs(gitDir);
            assertThat(after).as("the waiting packs retired by the next compaction").isLessThan(PackCompactor.MERGE * 2L);
            for (int i = 0; i < commits + PackCompactor.MERGE; i++) {
                assertThat(store.read(FactId.of("f" + i), store.head())).isInstanceOf(FactRead.Found.class);
            }
            assertThat(git(gitDir, "fsck", "--strict")).isZero();
        }
    }

    @Test
    void aReaderThatListedAPackBeforeItWasRetiredReadsOnWithoutTakingItForCorrupt() throws Exception {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.err;
        try (Store store = TestStores.initLexical(tmp)) {
            Path gitDir = store.gitDir();
            write(store, 0);
            org.eclipse.jgit.lib.ObjectId first = org.eclipse.jgit.lib.ObjectId.fromString(store.head().hex());
            for (int i = 1; i < PackCompactor.MERGE - 1; i++) {
                write(store, i);
            }
            // another process's view: it lists the packs and loads only the index of the newest, where the head is
            try (GitRepo reader = GitRepo.open(gitDir, false)) {
                try (var r = reader.newReader()) {
                    r.open(org.eclipse.jgit.lib.ObjectId.fromString(store.head().hex())).getBytes();
                }
                for (int i = PackCompactor.MERGE - 1; i < 2 * PackCompactor.MERGE; i++) {
                    write(store, i); // the writer merges the first packs and retires them
                }
                assertThat(Files.exists(gitDir.resolve("objects/pack"))).isTrue();
                assertThat(packs(gitDir)).as("the first packs merged and retired").isLessThan(2L * PackCompactor.MERGE);
                System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
                try (var r = reader.newReader()) {
                    // in a retired pack of the reader's list: found through the merged pack once the list is read again
                    assertThat(r.open(first).getType()).isEqualTo(org.eclipse.jgit.lib.Constants.OBJ_COMMIT);
                }
            } finally {
                System.setErr(saved);
            }
            assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("corrupt");
            assertThat(git(gitDir, "fsck", "--strict")).isZero();
        }
    }

    /** Holds the repack lock of the repository at {@code args[0]}, says {@code held}, and lets go when stdin closes. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            try (GitRepo repo = GitRepo.open(Path.of(args[0]), false)) {
                boolean ran = repo.repack().whileIdle(() -> {
                    System.out.println("held");
                    System.out.flush();
                    try {
                        System.in.readAllBytes();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                System.exit(ran ? 0 : 1);
            }
        }
    }

    private static void write(Store store, int i) throws Exception {
        var tx = store.begin(TestStores.ALICE);
        tx.assertFact(FactSpec.of(Kind.CLAIM, "claim number " + i).id(FactId.of("f" + i)));
        tx.commit();
    }

    private static long packs(Path gitDir) throws Exception {
        try (Stream<Path> s = Files.list(gitDir.resolve("objects/pack"))) {
            return s.filter(p -> p.getFileName().toString().endsWith(".pack")).count();
        }
    }

    private static int git(Path gitDir, String... args) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("git", "--git-dir", gitDir.toString()));
        cmd.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return p.exitValue();
    }
}
