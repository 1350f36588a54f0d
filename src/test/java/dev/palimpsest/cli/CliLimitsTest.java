package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.Limits;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CliLimitsTest extends CliStoreTest {
    @Test
    void anIngestFileOverTheLimitIsRejectedAsTooLargeWithoutBeingRead() throws Exception {
        ok("init", "--actor", "alice");
        Path big = dir.resolve("big.yaml");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(Limits.MAX_INGEST_FILE + 1);
        }
        Run r = cmd("ingest", "--actor", "alice", "--file", big.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(Main.REJECTED);
        assertThat(r.err()).contains("[too-large]").contains("16.0 MiB");
    }

    @Test
    void aMissingOrFolderIngestFileIsARejectionNotAnInternalError() {
        ok("init", "--actor", "alice");
        Run missing = cmd("ingest", "--actor", "alice", "--file", dir.resolve("nope.yaml").toString());
        assertThat(missing.code()).as(missing.err()).isEqualTo(Main.REJECTED);
        Run folder = cmd("ingest", "--actor", "alice", "--file", dir.toString());
        assertThat(folder.code()).as(folder.err()).isEqualTo(Main.REJECTED);
    }

    @Test
    void aBodyOverTheLimitIsExitFiveAndABodyUnderItIsShown() throws Exception {
        ok("init", "--actor", "alice");
        Run huge = cmd("assert", "--actor", "alice", "--id", "huge", "--body", "y".repeat(3 << 20));
        assertThat(huge.code()).as(huge.err()).isEqualTo(Main.REJECTED);
        assertThat(huge.err()).contains("[too-large]");
        String body = "z".repeat(Limits.MAX_FILE - 1024);
        ok("assert", "--actor", "alice", "--id", "big", "--body", body);
        Run show = ok("show", "big", "--json");
        assertThat(show.json().get("body").asText()).isEqualTo(body);
    }
}
