package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The CLI's log levels: the library's notices, other libraries' warnings, and nothing at all with {@code --json}. */
class MainLogLevelsTest {
    @Test
    void jgitsPackListWarningIsLeftOutWhileOtherWarningsAndTheLibrarysNoticesShow() {
        var levels = Main.logLevels(false, false);
        assertThat(levels).containsEntry("defaultLogLevel", "warn")
                .containsEntry("log.dev.palimpsest", "info")
                .containsEntry("log.dev.palimpsest.progress", "off")
                .containsEntry("log.org.eclipse.jgit.internal.storage.file.PackDirectory", "error");
        assertThat(Main.logLevels(false, true)).containsEntry("log.dev.palimpsest.progress", "info");
    }

    @Test
    void withJsonEveryLoggerIsOffSoStandardErrorStaysClean() {
        assertThat(Main.logLevels(true, false).values()).containsOnly("off");
    }
}
