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

    @Test
    void seed002SequenceUnderTheDefaultEncryptModeEndsWithUnlearnCheckClean() {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--id", "a", "--kind", "note", "--sensitive", "--body",
                "Patient Zelda Quixote lives at 12 Harbour Lane");
        ok("assert", "--actor", "alice", "--id", "b", "--kind", "claim", "--ref", "a", "--quote",
                "a=Zelda Quixote lives at 12 Harbour", "--body", "needs a ramp at the door");
        ok("assert", "--actor", "alice", "--id", "c", "--kind", "claim", "--ref", "b", "--body", "the ramp was built");
        assertThat(ok("show", "b", "--json").out()).contains("needs a ramp at the door");
        Run before = cmd("unlearn-check", "a", "--json");
        assertThat(before.code()).as(before.err()).isEqualTo(Main.AUDIT_VIOLATIONS);
        assertThat(flat(before)).contains("\"readable\":[\"b\",\"c\"]");

        Run f = ok("forget", "--actor", "alice", "a", "--with-derived", "--reason", "erasure request", "--json");
        assertThat(flat(f)).contains("\"forgotten\":[\"a\",\"b\",\"c\"]").contains("\"review\":[]");
        String commit = flat(f).replaceAll("(?s).*\"commit\":\"([0-9a-f]{40})\".*", "$1");
        Run show = cmd("show", "b");
        assertThat(show.code()).isEqualTo(Main.NOT_FOUND);
        assertThat(show.err()).contains("forgotten at " + commit);

        Run after = cmd("unlearn-check", "a", "--json");
        assertThat(after.code()).as(after.out() + after.err()).isEqualTo(Main.OK);
        assertThat(flat(after)).contains("\"derivations\":[\"b\",\"c\"]").contains("\"readable\":[]");
        assertThat(cmd("search", "ramp").out()).doesNotContain("ramp");
        Run audit = cmd("audit", "--json");
        assertThat(audit.code()).as(audit.out() + audit.err()).isEqualTo(Main.OK);
    }

    @Test
    void aPlaintextCiterIsWrittenOnlyWithPlaintextAndStaleShowsTheSourceForgotten() {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--id", "a", "--kind", "note", "--sensitive", "--body",
                "Patient Zelda Quixote lives at 12 Harbour Lane");
        ok("assert", "--actor", "alice", "--id", "p", "--kind", "claim", "--ref", "a", "--plaintext", "--body",
                "a ramp request was filed");
        Run f = ok("forget", "--actor", "alice", "a", "--with-derived", "--reason", "erasure request", "--json");
        assertThat(flat(f)).contains("\"forgotten\":[\"a\"]").contains("\"review\":[\"p\"]");
        String commit = flat(f).replaceAll("(?s).*\"commit\":\"([0-9a-f]{40})\".*", "$1");
        assertThat(ok("show", "p").out()).contains("a ramp request was filed");
        assertThat(flat(ok("stale", "p", "--json"))).contains("\"status\":\"forgotten\"")
                .contains("\"current_commit\":\"" + commit + "\"");
        assertThat(flat(ok("explain", "p", "--json"))).contains("\"status\":\"forgotten\",\"forgotten_at\":\""
                + commit + "\"");
        assertThat(cmd("unlearn-check", "a").code()).isEqualTo(Main.AUDIT_VIOLATIONS);
    }

    private static String flat(Run r) {
        return r.out().replaceAll("\\s+", "");
    }

    @Test
    void badInputToTheErasureCommandsNamesWhatIsWrongAndWritesNothing() {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--id", "a", "--kind", "note", "--sensitive", "--body", "Zelda lives at the harbour");
        ok("assert", "--actor", "alice", "--id", "p", "--kind", "note", "--body", "a plain note");
        var before = dev.palimpsest.api.TestStores.durableState(java.nio.file.Path.of(store));
        Run deadline = cmd("assert", "--actor", "alice", "--id", "x", "--body", "b", "--retain-until", "tomorrow");
        assertThat(deadline.code()).isEqualTo(Main.USAGE);
        assertThat(deadline.err()).contains("--retain-until").contains("'tomorrow'");
        Run now = cmd("expire", "--actor", "alice", "--now", "2026-13-01");
        assertThat(now.code()).isEqualTo(Main.USAGE);
        assertThat(now.err()).contains("--now").contains("'2026-13-01'");
        Run ghost = cmd("forget", "--actor", "alice", "ghost", "--reason", "r", "--json");
        assertThat(ghost.code()).as(ghost.out() + ghost.err()).isIn(Main.NOT_FOUND, Main.REJECTED);
        assertThat(ghost.out() + ghost.err()).contains("ghost");
        Run plain = cmd("forget", "--actor", "alice", "a", "p", "--reason", "r", "--json");
        assertThat(plain.code()).isEqualTo(Main.REJECTED);
        assertThat(plain.out()).contains("forget-plaintext").contains("\"p\"");
        Run badId = cmd("forget", "--actor", "alice", "Not An Id", "--reason", "r");
        assertThat(badId.code()).isEqualTo(Main.REJECTED);
        assertThat(badId.err()).contains("ID").contains("Not An Id");
        Run noReason = cmd("forget", "--actor", "alice", "a");
        assertThat(noReason.code()).isEqualTo(Main.USAGE);
        assertThat(noReason.err()).contains("--reason");
        Run dry = ok("forget", "--actor", "alice", "a", "--reason", "r", "--dry-run");
        assertThat(dry.out()).startsWith("would forget a");
        Run unknown = cmd("unlearn-check", "ghost");
        assertThat(unknown.code()).isEqualTo(Main.NOT_FOUND);
        assertThat(unknown.err()).contains("ghost");
        assertThat(dev.palimpsest.api.TestStores.durableState(java.nio.file.Path.of(store))).isEqualTo(before);
        assertThat(ok("show", "a").out()).contains("Zelda lives at the harbour");
    }

    @Test
    void aForgottenFactIsNotFoundWithFallbackAndAtAnEarlierCommit() {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--id", "a", "--kind", "note", "--sensitive", "--body", "Zelda lives at the harbour");
        String written = ok("log", "--json").out().replaceAll("(?s)^.*?\"commit\"\\s*:\\s*\"([0-9a-f]{40})\".*$", "$1");
        ok("retract", "--actor", "alice", "a", "--reason", "wrong");
        assertThat(ok("show", "a", "--fallback").out()).contains("Zelda lives at the harbour");
        ok("forget", "--actor", "alice", "a", "--reason", "erasure");
        for (String[] read : new String[][] {{"show", "a", "--fallback"}, {"show", "a", "--at", written}}) {
            Run r = cmd(read);
            assertThat(r.code()).as(String.join(" ", read)).isEqualTo(Main.NOT_FOUND);
            assertThat(r.err()).as(String.join(" ", read)).contains("forgotten at");
            assertThat(r.out()).as(String.join(" ", read)).doesNotContain("Zelda");
        }
        Run h = ok("history", "a", "--json");
        assertThat(h.out().replaceAll("\\s+", "")).contains("\"change\":\"forgotten\"").doesNotContain("Zelda");
    }

    @Test
    void initRefusesAnUnknownEncryptMode() {
        Run r = cmd("init", "--actor", "alice", "--encrypt", "some");
        assertThat(r.code()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("--encrypt");
    }
}
