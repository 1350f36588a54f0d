package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CliInitTest extends CliStoreTest {
    @Test
    void initSaysWhereItWroteTheKeyAndThatItIsNotPassphraseProtected() {
        Run r = ok("init", "--actor", "alice");
        Path key = dir.resolve("home/keys/alice.sec.asc");
        assertThat(r.err()).contains("generated the secret key of alice at " + key)
                .contains("not passphrase-protected");
        Run again = Run.inStore(dir.resolve("second.git").toString(), home, "init", "--actor", "alice");
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.err()).doesNotContain("generated").contains(key.toString());
    }

    @Test
    void initJsonReportsTheKeyFileAndWhetherItWasGenerated() throws Exception {
        JsonNode first = ok("init", "--actor", "alice", "--json").json();
        assertThat(first.get("key_file").asText()).isEqualTo(dir.resolve("home/keys/alice.sec.asc").toString());
        assertThat(first.get("key_generated").asBoolean()).isTrue();
        Run second = Run.inStore(dir.resolve("second.git").toString(), home, "init", "--actor", "alice", "--json");
        assertThat(second.json().get("key_generated").asBoolean()).isFalse();
    }
}
