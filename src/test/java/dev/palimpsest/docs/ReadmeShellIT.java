package dev.palimpsest.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README runs as written: its {@code sh} blocks, in order, in one bash session in a fresh
 * folder, with a fresh home and no {@code PALIMPSEST_*} settings of the machine, print what its
 * {@code text} blocks show (conventions: {@link ShellDoc}). Run by failsafe after {@code package}:
 * the folder holds {@code palimpsest}, a symlink to the repository's launcher (as a clone's
 * folder does), and the launcher runs the packaged jar ({@code PALIMPSEST_JAR}), never building.
 */
class ReadmeShellIT {
    /** C1 only: each CLI command starts ~30 % faster; the behaviour is the same. */
    static final String FAST_START = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

    @TempDir
    Path dir;

    @Test
    void everyShellBlockOfTheReadmeRunsInOrderAndPrintsWhatTheReadmeShows() throws Exception {
        Path root = Path.of("").toAbsolutePath();
        String jar = System.getProperty("palimpsest.jar", root.resolve("target/palimpsest.jar").toString());
        assertThat(Path.of(jar)).as("the packaged jar (failsafe runs after package)").isRegularFile();
        List<ShellDoc.Block> blocks = ShellDoc.parse(Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8));

        Path work = Files.createDirectory(dir.resolve("clone"));
        Files.createSymbolicLink(work.resolve("palimpsest"), root.resolve("palimpsest"));
        Files.createSymbolicLink(work.resolve("examples"), root.resolve("examples"));
        ShellDoc.Run run = ShellDoc.run(blocks, work, environment(jar, Files.createDirectory(dir.resolve("home"))),
                Duration.ofMinutes(5));
        List<ShellDoc.Block> running = blocks.stream().filter(ShellDoc.Block::runs).toList();
        StringBuilder times = new StringBuilder();
        for (int k = 0; k < run.blockTimes().size(); k++) {
            times.append(String.format(" line %d: %.1f s;", running.get(k).line(), run.blockTimes().get(k).toMillis() / 1000.0));
        }
        System.out.printf("README.md: %d sh blocks ran in %.1f s (%s)%n", run.blocksStarted(),
                run.took().toMillis() / 1000.0, times.toString().strip());
        try {
            ShellDoc.check("README.md", blocks, run);
        } finally {
            Files.deleteIfExists(work.resolve("palimpsest"));
        }
    }

    static Map<String, String> environment(String jar, Path home) throws IOException {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("PALIMPSEST_") || k.equals("HUB_PORT") || k.startsWith("GIT_"));
        env.put("HOME", home.toString());
        env.put("PALIMPSEST_JAR", jar);
        env.put("PALIMPSEST_JAVA", ProcessHandle.current().info().command().orElse("java"));
        env.put("PALIMPSEST_JAVA_OPTS", FAST_START);
        env.put("HUB_PORT", Integer.toString(freePort()));
        return env;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
