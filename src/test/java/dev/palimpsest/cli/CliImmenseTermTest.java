package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A claim or body with a token longer than Lucene's 32,766-byte term limit is stored whole and
 * leaves search and brief working: at once, after its retraction, and after the index is rebuilt.
 */
class CliImmenseTermTest extends CliStoreTest {
    private static final String HUGE = "x".repeat(36_000);
    private static final String HUGE_TOO = "x".repeat(35_999) + "y";

    @BeforeEach
    void init() {
        ok("init", "--actor", "alice");
        ok("assert", "--actor", "alice", "--kind", "source", "--id", "doc", "--body", "the design notes");
    }

    private JsonNode search(String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "search";
        System.arraycopy(args, 0, all, 1, args.length);
        all[all.length - 1] = "--json";
        Run r = ok(all);
        assertThat(r.err()).doesNotContain("could not update the search index");
        return r.json();
    }

    private void searchAndBriefWork() throws Exception {
        search("--query", "design notes");
        search("--entity", "cache");
        ok("brief", "--entity", "cache", "--query", "design");
        ok("brief", "--entity", "cache", "--json");
    }

    @Test
    void anImmenseClaimObjectKeepsSearchAndBriefWorking() throws Exception {
        ok("claim", "--actor", "alice", "--subject", "cache", "--predicate", "holds", "--object", HUGE, "--source",
                "doc", "--id", "big");
        ok("claim", "--actor", "alice", "--subject", HUGE, "--predicate", "is", "--object", "long", "--source", "doc",
                "--id", "bigsubj");
        ok("claim", "--actor", "alice", "--subject", HUGE_TOO, "--predicate", "is", "--object", "longer", "--source",
                "doc", "--id", "bigsubj2");
        assertThat(ok("show", "big", "--json").json().get("body").asText()).isEqualTo("cache holds " + HUGE);
        searchAndBriefWork();
        assertThat(search("--entity", "cache")).extracting(h -> h.get("id").asText()).contains("big");
        assertThat(search("--entity", HUGE, "--hops", "0")).extracting(h -> h.get("id").asText())
                .containsExactly("bigsubj", "big"); // big: the key is its object
        assertThat(search("--entity", HUGE_TOO, "--hops", "0")).extracting(h -> h.get("id").asText())
                .containsExactly("bigsubj2");
        assertThat(search("--entity", "cache", "--hops", "1")).extracting(h -> h.get("id").asText())
                .as("the hop from the object key " + "x".repeat(8) + "… reaches the claim about it")
                .contains("bigsubj");

        ok("retract", "--actor", "alice", "big", "--reason", "too long", "--no-cascade");
        searchAndBriefWork();
        assertThat(search("--entity", "cache")).extracting(h -> h.get("id").asText()).doesNotContain("big");

        deleteIndex();
        searchAndBriefWork();
        assertThat(search("--entity", HUGE, "--hops", "0")).extracting(h -> h.get("id").asText())
                .containsExactly("bigsubj");
        assertThat(ok("audit").code()).isZero();
    }

    @Test
    void anImmenseSingleTokenBodyKeepsSearchAndBriefWorking() throws Exception {
        Path f = Files.writeString(dir.resolve("body.txt"), HUGE);
        ok("assert", "--actor", "alice", "--id", "blob", "--body-file", f.toString());
        assertThat(ok("show", "blob", "--json").json().get("body").asText()).isEqualTo(HUGE);
        searchAndBriefWork();
        ok("retract", "--actor", "alice", "blob", "--reason", "too long", "--no-cascade");
        deleteIndex();
        searchAndBriefWork();
    }

    private void deleteIndex() throws Exception {
        Path idx = Path.of(store).resolve("palimpsest-index").resolve("search-v1");
        assertThat(idx).isDirectory();
        try (var walk = Files.walk(idx)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        assertThat(idx).doesNotExist();
    }
}
