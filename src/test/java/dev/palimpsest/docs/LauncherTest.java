package dev.palimpsest.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code palimpsest} launcher at the repository's root, run in a copy of the repository's shape
 * with a stand-in {@code mvn} (counts its builds, makes the jar, talks on stdout) and {@code java}
 * (prints its arguments, exits with {@code FAKE_EXIT}).
 */
class LauncherTest {
    @TempDir
    Path dir;
    Path repo;
    Path bin;
    Path jar;

    record Result(int exit, List<String> stdout, String stderr) {
    }

    @BeforeEach
    void aCheckoutWithStandIns() throws IOException {
        repo = Files.createDirectories(dir.resolve("repo"));
        Files.copy(Path.of("palimpsest"), repo.resolve("palimpsest"));
        Files.writeString(repo.resolve("pom.xml"), "<project/>");
        Files.createDirectories(repo.resolve("src/main/java"));
        Files.writeString(repo.resolve("src/main/java/A.java"), "class A {}");
        jar = repo.resolve("target/palimpsest.jar");
        bin = Files.createDirectories(dir.resolve("bin"));
        script(bin.resolve("mvn"), """
                #!/bin/sh
                echo "$PWD $*" >> "%s"
                echo "[INFO] maven talks on stdout"
                [ -n "${FAKE_BUILD_FAILS:-}" ] && exit 3
                mkdir -p target && : > target/palimpsest.jar
                """.formatted(dir.resolve("builds")));
        script(bin.resolve("java"), """
                #!/bin/sh
                for a in "$@"; do
                  echo "$a"
                  case "$a" in -XX:ArchiveClassesAtExit=*) echo archive > "${a#*=}" ;; esac
                done
                exit "${FAKE_EXIT:-0}"
                """);
    }

    private static void script(Path p, String text) throws IOException {
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Result run(Path launcher, Path cwd, Map<String, String> extra, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        Map<String, String> env = new HashMap<>();
        env.put("PATH", bin + ":/usr/bin:/bin");
        env.put("HOME", dir.toString());
        env.putAll(extra);
        pb.environment().clear();
        pb.environment().putAll(env);
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readAllLines(out), Files.readString(err));
    }

    private List<String> builds() throws IOException {
        Path log = dir.resolve("builds");
        return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
    }

    @Test
    void aMissingJarIsBuiltFirstWithMavenTalkingOnStderrThenTheCommandRuns() throws Exception {
        Result r = run(repo.resolve("palimpsest"), dir, Map.of(), "demo", "my dir");
        assertThat(r.exit()).isZero();
        assertThat(builds()).containsExactly(repo.toRealPath() + " -B -q package -DskipTests");
        assertThat(withoutCds(r.stdout())).containsExactly("-jar",
                repo.toRealPath().resolve("target/palimpsest.jar").toString(), "demo", "my dir");
        assertThat(r.stderr()).contains("target/palimpsest.jar is missing; building it")
                .contains("[INFO] maven talks on stdout");
    }

    @Test
    void anUpToDateJarIsNotRebuiltAndANewerSourceRebuildsIt() throws Exception {
        run(repo.resolve("palimpsest"), dir, Map.of(), "help");
        Files.setLastModifiedTime(repo.resolve("pom.xml"), FileTime.from(Instant.now().minusSeconds(120)));
        for (String p : List.of("src/main", "src/main/java", "src/main/java/A.java")) {   // folders count too: a deleted file
            Files.setLastModifiedTime(repo.resolve(p), FileTime.from(Instant.now().minusSeconds(120)));
        }
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(60)));
        Result again = run(repo.resolve("palimpsest"), dir, Map.of(), "help");
        assertThat(again.stderr()).isEmpty();
        assertThat(builds()).hasSize(1);

        Files.setLastModifiedTime(repo.resolve("src/main/java/A.java"), FileTime.from(Instant.now()));
        Result changed = run(repo.resolve("palimpsest"), dir, Map.of(), "help");
        assertThat(changed.stderr()).contains("the sources changed since target/palimpsest.jar was built");
        assertThat(builds()).hasSize(2);
    }

    @Test
    void theCommandsExitCodeIsTheLaunchersExitCode() throws Exception {
        run(repo.resolve("palimpsest"), dir, Map.of(), "help");
        assertThat(run(repo.resolve("palimpsest"), dir, Map.of("FAKE_EXIT", "4"), "show", "x").exit()).isEqualTo(4);
        assertThat(run(repo.resolve("palimpsest"), dir, Map.of("FAKE_EXIT", "7"), "push").exit()).isEqualTo(7);
    }

    @Test
    void aFailedBuildStopsWithMavensExitCodeAndRunsNothing() throws Exception {
        Result r = run(repo.resolve("palimpsest"), dir, Map.of("FAKE_BUILD_FAILS", "1"), "demo");
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("the build failed (exit 3)");
    }

    @Test
    void itRunsThroughASymlinkFromAnotherFolder() throws Exception {
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere/deeper"));
        Path links = Files.createDirectories(dir.resolve("links"));
        Files.createSymbolicLink(links.resolve("palimpsest"), Path.of("../repo/palimpsest"));
        Files.createSymbolicLink(links.resolve("pal"), links.resolve("palimpsest"));   // a link to a link
        Result r = run(links.resolve("pal"), elsewhere, Map.of(), "log");
        assertThat(r.exit()).isZero();
        assertThat(withoutCds(r.stdout())).containsExactly("-jar",
                repo.toRealPath().resolve("target/palimpsest.jar").toString(), "log");
    }

    @Test
    void javaOptionsGoBeforeTheJarAndAGivenJarIsRunAsItIsWithoutBuilding() throws Exception {
        Result r = run(repo.resolve("palimpsest"), dir,
                Map.of("PALIMPSEST_JAVA_OPTS", "-Xmx64m -Dx=1", "PALIMPSEST_JAR", "/opt/p.jar"), "audit");
        assertThat(r.stdout()).containsExactly("-Xmx64m", "-Dx=1", "-jar", "/opt/p.jar", "audit");
        assertThat(builds()).isEmpty();
    }

    private static List<String> withoutCds(List<String> args) {
        return args.stream().filter(a -> !a.startsWith("-XX:SharedArchiveFile=") && !a.startsWith("-XX:ArchiveClassesAtExit=")
                && !a.startsWith("-Xlog:cds")).toList();
    }

    @Test
    void theFirstRunRecordsAClassArchiveThatLaterRunsMapUntilTheJarIsNewer() throws Exception {
        Path jsa = repo.toRealPath().resolve("target/palimpsest.jsa");
        Result first = run(repo.resolve("palimpsest"), dir, Map.of("FAKE_EXIT", "4"), "show", "x");
        assertThat(first.exit()).as("the recording run keeps the command's exit code").isEqualTo(4);
        assertThat(first.stdout()).anySatisfy(a -> assertThat(a).startsWith("-XX:ArchiveClassesAtExit=" + jsa + "."))
                .contains("-Xlog:cds=off").noneMatch(a -> a.startsWith("-XX:SharedArchiveFile"));
        assertThat(jsa).hasContent("archive");
        try (var left = Files.list(jsa.getParent())) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("palimpsest.jar", "palimpsest.jsa");
        }

        Result second = run(repo.resolve("palimpsest"), dir, Map.of(), "help");
        assertThat(second.stdout()).startsWith("-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=off", "-Xlog:cds+dynamic=off",
                "-jar").noneMatch(a -> a.startsWith("-XX:ArchiveClassesAtExit"));

        Files.setLastModifiedTime(jsa, FileTime.from(Instant.now().minusSeconds(60)));
        Result rebuilt = run(repo.resolve("palimpsest"), dir, Map.of(), "help");
        assertThat(rebuilt.stdout()).as("a jar newer than its archive is recorded again")
                .anySatisfy(a -> assertThat(a).startsWith("-XX:ArchiveClassesAtExit="));
        assertThat(run(repo.resolve("palimpsest"), dir, Map.of("PALIMPSEST_NO_CDS", "1"), "help").stdout())
                .containsExactly("-jar", repo.toRealPath().resolve("target/palimpsest.jar").toString(), "help");
    }
}
