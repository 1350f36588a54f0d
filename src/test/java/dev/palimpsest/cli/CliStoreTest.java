package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A CLI test against one store ({@code s.git}) and key home ({@code home}) in a fresh temporary folder. */
abstract class CliStoreTest {
    @TempDir
    Path dir;

    String store;
    String home;

    @BeforeEach
    void paths() {
        store = dir.resolve("s.git").toString();
        home = dir.resolve("home").toString();
    }

    /** The command line with {@code --store} and {@code --home} appended. */
    Run cmd(String... args) {
        return Run.inStore(store, home, args);
    }

    /** {@link #cmd}, which must exit 0. */
    Run ok(String... args) {
        Run r = cmd(args);
        assertThat(r.code()).as(String.join(" ", args) + ": " + r.err()).isZero();
        return r;
    }
}
