package dev.palimpsest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench hub} run small (2 MCP clients x 20 writes, 2 replicas for a few seconds): every
 * acknowledged write is live on the hub and both replicas, the replicas converge, the audit is clean.
 */
class HubBenchTest {
    @TempDir
    Path tmp;

    @Test
    void aSmallRunLosesNothingConvergesAndAuditsClean() throws Exception {
        StringWriter log = new StringWriter();
        HubBench.Result r = new HubBench(new HubBench.Options(tmp, 2, 20, 2, 8), new PrintWriter(log)).run();
        assertThat(r.violations()).as(r.toString()).isEmpty();
        assertThat(r.mcpAcknowledged()).isEqualTo(40);
        assertThat(r.pushes()).isPositive();
        assertThat(r.pushedFacts()).isGreaterThanOrEqualTo(r.pushes());
        assertThat(r.latency()).containsKeys("mcp write", "pull", "local write");
        assertThat(r.latency().keySet()).containsAnyOf("push", "push (merged by the hub)");
        assertThat(r.pushes()).isGreaterThanOrEqualTo(r.mergedPushes());
    }
}
