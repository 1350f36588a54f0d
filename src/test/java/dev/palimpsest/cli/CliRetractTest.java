package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.receipts.EntailSync;
import dev.palimpsest.internal.receipts.Entailer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code retract} carries the cascade through receipts (the receipts corpus: m1 rests on [[a1], [a5]]). */
class CliRetractTest extends CliStoreTest {
    private static final String UPSTREAM = EntailSync.edgeId(
            new Entailer.Triple("MAPK/ERK pathway", "upstream_of", "apoptosis")).value();

    @BeforeEach
    void init() {
        ok("init", "--actor", "alice");
        ok("ingest", "--actor", "alice", "--file", "examples/receipts-corpus.yaml");
    }

    private static List<String> trailers(JsonNode logEntry) {
        List<String> out = new ArrayList<>();
        logEntry.get("trailers").forEach(t -> out.add(t.get("key").asText() + ": " + t.get("value").asText()));
        return out;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void retractingAnAssertionBehindAMergeWithTwoBundlesKeepsTheMergeAndWritesOnlyTheRetraction() throws Exception {
        JsonNode r = ok("retract", "--actor", "alice", "a1", "--reason", "misquoted", "--json").json();
        assertThat(texts(r.get("retracted"))).containsExactly("a1");
        assertThat(ok("live", "m1").out().trim()).isEqualTo("true");
        JsonNode last = ok("log", "-n", "1", "--json").json().get(0);
        assertThat(last.get("subject").asText()).isEqualTo("retract a1: misquoted");
        assertThat(trailers(last)).containsExactly("Palimpsest-Actor: alice", "Palimpsest-Op: retract",
                "Palimpsest-Fact: a1");
        assertThat(ok("review", "--json").json()).anySatisfy(i -> {
            assertThat(i.get("id").asText()).isEqualTo("m1");
            assertThat(i.get("reason").asText()).isEqualTo("touched");
        });
    }

    @Test
    void retractingAnAssertionBehindAnEdgeWithOneBundleRetractsTheEdgeInTheSameCommit() throws Exception {
        ok("entail", "--actor", "alice");
        int commits = ok("log", "--json").json().size();
        JsonNode r = ok("retract", "--actor", "alice", "a1", "--reason", "misquoted", "--json").json();
        assertThat(texts(r.get("retracted"))).startsWith("a1").contains(UPSTREAM);
        assertThat(ok("log", "--json").json()).hasSize(commits + 1);
        assertThat(trailers(ok("log", "-n", "1", "--json").json().get(0))).contains("Palimpsest-Op: retract",
                "Palimpsest-Fact: " + UPSTREAM);
        JsonNode edge = ok("show", UPSTREAM, "--fallback", "--json").json();
        assertThat(edge.get("retracted").asBoolean()).isTrue();
        assertThat(edge.get("reason").asText()).contains("cascade of retract a1").contains("misquoted");
        assertThat(ok("live", "m1").out().trim()).isEqualTo("true");
        assertThat(ok("receipts", "--json").json().get("layers").get("edge").get("pending").asInt()).isZero();
        Run text = ok("retract", "--actor", "alice", "a6", "--reason", "unsound");
        assertThat(text.out()).contains("retract [a6]").contains("retract edge ").contains("one signed commit");
    }

    @Test
    void noCascadeRetractsOnlyTheFactAndLeavesTheEdgePendingInReview() throws Exception {
        ok("entail", "--actor", "alice");
        JsonNode r = ok("retract", "--actor", "alice", "a1", "--reason", "misquoted", "--no-cascade", "--json").json();
        assertThat(texts(r.get("retracted"))).containsExactly("a1");
        assertThat(ok("live", UPSTREAM).out().trim()).isEqualTo("true");
        assertThat(ok("receipts", "--json").json().get("layers").get("edge").get("pending").asInt()).isPositive();
        assertThat(ok("review", "--json").json()).anySatisfy(i -> {
            assertThat(i.get("id").asText()).isEqualTo(UPSTREAM);
            assertThat(i.get("reason").asText()).isEqualTo("pending");
            assertThat(texts(i.get("details"))).containsExactly("no live bundle", "lost a1");
        });
    }

    @Test
    void dryRunPrintsThePlanAndWritesNothing() throws Exception {
        ok("entail", "--actor", "alice");
        var before = TestStores.durableState(Path.of(store));
        JsonNode plan = ok("retract", "--actor", "alice", "a1", "--reason", "misquoted", "--dry-run", "--json").json();
        assertThat(plan.get("operation").asText()).isEqualTo("retract");
        assertThat(plan.get("dry_run").asBoolean()).isTrue();
        assertThat(plan.get("commit").isNull()).isTrue();
        assertThat(texts(plan.get("roots"))).containsExactly("a1");
        assertThat(plan.get("removals")).anySatisfy(x -> assertThat(x.get("id").asText()).isEqualTo(UPSTREAM));
        assertThat(texts(plan.get("touched"))).contains("m1");
        assertThat(ok("retract", "--actor", "alice", "a1", "--reason", "misquoted", "--dry-run").out())
                .startsWith("plan (dry run) retract [a1]");
        assertThat(TestStores.durableState(Path.of(store))).isEqualTo(before);
        assertThat(cmd("retract", "--actor", "alice", "a1", "--reason", "x", "--dry-run", "--no-cascade").code())
                .isEqualTo(Main.USAGE);
    }

    @Test
    void badInputIsRejectedWithTheGatesMessagesWithOrWithoutCascadeAndWritesNothing() throws Exception {
        ok("retract", "--actor", "alice", "a2", "--reason", "first");
        var before = TestStores.durableState(Path.of(store));
        String[][] cases = {
            {"ghost", "reason", "fact ghost: cannot retract: does not exist at "},
            {"a2", "again", "fact a2: cannot retract: already retracted at "},
            {"a5", " ", "fact a5: a retraction needs a reason [reason-required]"},
        };
        for (String[] c : cases) {
            Run cascade = cmd("retract", "--actor", "alice", c[0], "--reason", c[1]);
            Run plain = cmd("retract", "--actor", "alice", c[0], "--reason", c[1], "--no-cascade");
            Run dry = cmd("retract", "--actor", "alice", c[0], "--reason", c[1], "--dry-run");
            for (Run r : List.of(cascade, plain, dry)) {
                assertThat(r.code()).as(c[0]).isEqualTo(Main.REJECTED);
                assertThat(r.err()).contains(c[2]);
            }
            assertThat(cascade.err()).isEqualTo(plain.err()).isEqualTo(dry.err());
        }
        assertThat(TestStores.durableState(Path.of(store))).isEqualTo(before);
    }
}
