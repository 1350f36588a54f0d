package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** forget, expire and unlearn-check as the issue writes them: seed 002's sequence through the CLI. */
class CliForgetTest extends CliStoreTest {
    @Test
    void seed002SequenceThroughTheCli() {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--id", "a", "--kind", "note", "--sensitive", "--body",
                "Patient Zelda Quixote lives at 12 Harbour Lane");
        ok("assert", "--actor", "alice", "--id", "b", "--kind", "note", "--retain-until", "2026-01-01T00:00:00Z",
                "--ref", "a", "--quote", "a=Zelda Quixote lives at 12 Harbour", "--body", "needs a ramp at the door");
        Run before = cmd("unlearn-check", "a", "--json");
        assertThat(before.code()).as(before.err()).isEqualTo(Main.AUDIT_VIOLATIONS);
        assertThat(flat(before)).contains("\"readable\":[\"b\"]");

        Run dry = ok("forget", "--actor", "alice", "a", "--reason", "erasure request", "--dry-run", "--json");
        assertThat(flat(dry)).contains("\"commit\":null").contains("\"forgotten\":[\"a\"]").contains("\"closure\":[\"b\"]");
        Run f = ok("forget", "--actor", "alice", "a", "--reason", "erasure request", "--json");
        assertThat(flat(f)).contains("\"forgotten\":[\"a\"]").contains("\"closure\":[\"b\"]").contains("\"review\":[\"b\"]");
        String commit = flat(f).replaceAll("(?s).*\"commit\":\"([0-9a-f]{40})\".*", "$1");

        Run show = cmd("show", "a");
        assertThat(show.code()).isEqualTo(Main.NOT_FOUND);
        assertThat(show.err()).contains("forgotten at " + commit);
        Run again = cmd("forget", "--actor", "alice", "a", "--reason", "again", "--json");
        assertThat(again.code()).isEqualTo(Main.REJECTED);
        assertThat(again.out() + again.err()).contains("already-forgotten").contains(commit);

        Run ex = ok("expire", "--actor", "alice", "--now", "2026-06-01T00:00:00Z", "--json");
        assertThat(flat(ex)).contains("{\"id\":\"b\",\"deadline\":\"2026-01-01T00:00:00Z\"}");
        Run after = cmd("unlearn-check", "a", "--json");
        assertThat(after.code()).as(after.err()).isEqualTo(Main.OK);
        assertThat(flat(after)).contains("\"derivations\":[\"b\"]").contains("\"readable\":[]");
        Run audit = cmd("audit", "--json");
        assertThat(audit.code()).as(audit.out() + audit.err()).isEqualTo(Main.OK);
    }

    private static String flat(Run r) {
        return r.out().replaceAll("\\s+", "");
    }

    @Test
    void initRefusesAnUnknownEncryptMode() {
        Run r = cmd("init", "--actor", "alice", "--encrypt", "some");
        assertThat(r.code()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("--encrypt");
    }
}
