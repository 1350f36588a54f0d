package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** search and brief end to end through the CLI: JSON shapes, text, --at, and bad values as rejections. */
class CliRecallTest {
    @TempDir
    Path dir;

    private Run cmd(String... args) {
        return Run.inStore(dir.resolve("s.git").toString(), dir.resolve("home").toString(), args);
    }

    private JsonNode ok(Run r) throws Exception {
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        return r.json();
    }

    private String claim(String id, String subject, String predicate, String object, String... more) throws Exception {
        String[] base = {"claim", "--actor", "alice", "--subject", subject, "--predicate", predicate, "--object", object,
            "--source", "arch", "--id", id, "--run", "run-12", "--json"};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return ok(cmd(all)).get("commit").asText();
    }

    @BeforeEach
    void init() throws Exception {
        assertThat(cmd("init", "--actor", "alice").code()).isZero();
        ok(cmd("assert", "--actor", "alice", "--id", "arch", "--kind", "source", "--json", "--body", "architecture notes"));
        claim("a1", "auth-service", "depends on", "redis");
        claim("b1", "billing-service", "depends on", "auth-service");
        claim("r2", "redis", "has known issue", "connection leak under TLS");
    }

    @Test
    void searchPrintsHitsWithWhyEachWasReturned() throws Exception {
        JsonNode hits = ok(cmd("search", "--entity", "auth-service"));
        assertThat(hits).extracting(h -> h.get("id").asText()).containsExactly("a1", "b1", "r2");
        JsonNode a1 = hits.get(0);
        assertThat(a1.get("score").asDouble()).isEqualTo(1.0);
        assertThat(a1.get("channel").asText()).isEqualTo("entity");
        assertThat(a1.get("hops").asInt()).isZero();
        assertThat(a1.get("via").isNull()).isTrue();
        assertThat(a1.get("subject").asText()).isEqualTo("auth-service");
        assertThat(a1.get("predicate").asText()).isEqualTo("depends on");
        assertThat(a1.get("object").asText()).isEqualTo("redis");
        assertThat(a1.get("body").asText()).isEqualTo("auth-service depends on redis");
        assertThat(a1.get("commit").asText()).hasSize(40);
        JsonNode b1 = hits.get(1); // names auth-service as its object: the entity band, below its subject's claims
        assertThat(b1.get("channel").asText()).isEqualTo("entity");
        assertThat(b1.get("score").asDouble()).isCloseTo(0.91 + 0.09 * 0.875, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(b1.get("via").isNull()).isTrue();
        assertThat(ok(cmd("search", "--query", "connection leak", "--hops", "0")))
                .extracting(h -> h.get("id").asText()).containsExactly("r2");
        Run nothing = cmd("search", "--json");
        assertThat(nothing.code()).as("nothing to rank by is a usage error").isEqualTo(2);
        assertThat(nothing.json().get("error").get("message").asText()).contains("--query", "--entity");
        assertThat(cmd("search", "--query", "  ").code()).isEqualTo(2);
        assertThat(ok(cmd("search", "--entity", "auth-service", "--limit", "1"))).hasSize(1);
        assertThat(ok(cmd("search", "--query", "architecture", "--kind", "source", "--hops", "0")))
                .extracting(h -> h.get("id").asText()).containsExactly("arch");
        assertThat(ok(cmd("search", "--entity", "redis", "--run", "run-9"))).isEmpty();
        assertThat(ok(cmd("search", "--entity", "redis", "--actor", "alice", "--hops", "0")))
                .extracting(h -> h.get("id").asText()).containsExactly("r2", "a1"); // a1: redis is its object
    }

    @Test
    void knownEntitiesListsKeysWithCountsAsJsonAndText() throws Exception {
        JsonNode all = ok(cmd("known-entities", "--json"));
        assertThat(all).extracting(e -> e.get("key").asText() + "=" + e.get("facts").asInt())
                .containsExactly("auth service=2", "redis=2", "billing service=1", "connection leak under tls=1");
        assertThat(ok(cmd("known-entities", "--prefix", "Red", "--json"))).extracting(e -> e.get("key").asText())
                .containsExactly("redis");
        Run text = cmd("known-entities", "--prefix", "auth", "--limit", "1");
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).isEqualTo("auth service\t2\n");
        assertThat(cmd("known-entities", "--limit", "0", "--json").code()).isNotZero();
    }

    @Test
    void searchAndBriefAnswerAtAPastCommit() throws Exception {
        String before = ok(cmd("log", "-n", "1", "--json")).get(0).get("commit").asText();
        ok(cmd("retract", "--actor", "alice", "r2", "--reason", "not reproducible", "--json"));
        assertThat(ok(cmd("search", "--query", "connection leak"))).isEmpty();
        assertThat(ok(cmd("search", "--query", "connection leak", "--at", before)))
                .extracting(h -> h.get("id").asText()).containsExactly("r2", "a1");
        Run text = cmd("brief", "--entity", "redis", "--at", before);
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).startsWith("Known facts (with provenance):\n- as of commit " + before.substring(0, 12)
                + ", written ").contains("source arch:\n  - r2: redis has known issue connection leak under TLS\n");
        Run now = cmd("brief", "--entity", "redis");
        assertThat(now.code()).isZero();
        // retracted: no longer a known fact, now a dead end; a1 names redis as its object, so it is known
        assertThat(now.out()).startsWith("Known facts (with provenance):\n- as of commit ")
                .contains("\n  - a1: auth-service depends on redis\n")
                .containsPattern("Superseded or retracted \u2014 do not re-derive these:\n- .*:\n  - r2@[0-9a-f]{12}: redis has"
                + " known issue connection leak under TLS \\(retracted at ");
        assertThat(now.out().substring(0, now.out().indexOf("Superseded"))).doesNotContain("connection leak");
    }

    @Test
    void briefJsonHasSectionsAndOmitted() throws Exception {
        claim("a2", "auth-service", "owned by", "platform team");
        claim("a3", "auth-service", "times out after", "30s");
        claim("a4", "auth-service", "times out after", "10s", "--supersedes", "a3");
        JsonNode b = ok(cmd("brief", "--entity", "auth-service", "--json"));
        assertThat(b.get("sections")).extracting(s -> s.get("name").asText()).containsExactly(
                "Known facts (with provenance)", "Superseded or retracted \u2014 do not re-derive these");
        assertThat(b.get("omitted").asInt()).isZero();
        assertThat(b.get("sections").get(1).get("lines").get(1).asText())
                .isEqualTo("  - a3: auth-service times out after 30s (superseded by a4)");
        JsonNode small = ok(cmd("brief", "--entity", "auth-service", "--max-tokens", "60", "--json"));
        assertThat(small.get("omitted").asInt()).isPositive();
        assertThat(small.get("tokens").asInt()).isLessThanOrEqualTo(60);
        Run text = cmd("brief", "--entity", "auth-service", "--max-tokens", "60");
        assertThat(text.out()).endsWith("(+" + small.get("omitted").asInt() + " lines omitted to fit a 60-token budget)\n");
        Run capped = cmd("brief", "--entity", "auth-service", "--max-dead-ends", "0");
        assertThat(capped.out()).contains("- (+1 older correction omitted)\n");
    }

    @Test
    void deadEndsWithAQueryComeMostRelevantFirst() throws Exception {
        claim("a2", "auth-service", "owned by", "platform team");
        claim("a3", "auth-service", "times out after", "30s");
        claim("a4", "auth-service", "times out after", "10s", "--supersedes", "a3");
        claim("a5", "auth-service", "owned by", "team core", "--supersedes", "a2");
        assertThat(ok(cmd("dead-ends", "auth-service", "--json")).get("kept")).extracting(k -> k.get("id").asText())
                .containsExactly("a2", "a3");
        JsonNode ranked = ok(cmd("dead-ends", "auth-service", "--query", "how long until it times out", "--max", "1",
                "--json"));
        assertThat(ranked.get("kept")).extracting(k -> k.get("id").asText()).containsExactly("a3");
        assertThat(ranked.get("omitted").asInt()).isEqualTo(1);
        Run text = cmd("dead-ends", "auth-service", "--query", "owner team", "--max", "1");
        assertThat(text.out()).startsWith("a2: ").endsWith("(1 less relevant dead ends omitted)\n");
    }

    @Test
    void badValuesAreRejectionsAndUnknownCommitsNotFound() throws Exception {
        assertThat(cmd("search", "--entity", "x", "--hops", "3").code()).isEqualTo(5);
        assertThat(cmd("search", "--entity", "x", "--limit", "0").code()).isEqualTo(5);
        assertThat(cmd("search", "--entity", " ").code()).isEqualTo(5);
        assertThat(cmd("brief", "--entity", "x", "--max-tokens", "-1").code()).isEqualTo(5);
        assertThat(cmd("brief", "--entity", "x", "--max-dead-ends", "-1").code()).isEqualTo(5);
        Run missing = cmd("search", "--entity", "x", "--at", "deadbeefdeadbeef");
        assertThat(missing.code()).isEqualTo(4);
        assertThat(cmd("search", "--bogus").code()).isEqualTo(2);
        assertThat(Run.of("search", "--store", dir.resolve("nothing").toString(), "--entity", "x").code()).isEqualTo(6);
    }
}
