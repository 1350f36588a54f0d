package dev.palimpsest.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.bench.AuditBench;
import dev.palimpsest.bench.CommitBench;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "bench", description = "Benchmarks whose numbers the README reports.",
        subcommands = {BenchCommand.Commit.class, BenchCommand.Predicates.class, BenchCommand.Audit.class,
            BenchCommand.ReceiptsBenchCmd.class, BenchCommand.ClaimsBenchCmd.class, BenchCommand.DependentsBench.class,
            BenchCommand.FileBench.class, BenchCommand.SearchBenchCmd.class, BenchCommand.RecallBenchCmd.class,
            BenchCommand.Pull.class, BenchCommand.McpBenchCmd.class, BenchCommand.ForgetBenchCmd.class,
            BenchCommand.Torture.class, BenchCommand.Hub.class, BenchCommand.Web.class})
final class BenchCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new Main.UsageException("name a benchmark: bench commit | bench predicates | bench audit | bench receipts | bench claims | bench search | bench recall");
    }

    /** The scratch folder a benchmark builds its stores in. */
    static final class Scratch {
        @Option(names = "--dir", description = "Scratch folder (default: the system temp folder).")
        Path dir;

        Path work() throws java.io.IOException {
            return dir != null ? Files.createDirectories(dir) : Path.of(System.getProperty("java.io.tmpdir"));
        }
    }

    @Command(name = "torture", description = "Many processes on one store and a replica, with SIGKILLs: CLI writer"
            + " processes, MCP servers with calls in flight and a syncing replica for --seconds, then every invariant"
            + " checked (acknowledged writes kept, no double supersession, no forgotten secret answered or left on disk,"
            + " convergence, audit and git fsck --strict clean); exit 3 when one broke.")
    static final class Torture extends Context implements Callable<Integer> {
        @Option(names = "--seconds", defaultValue = "300", description = "How long the load runs. Default: ${DEFAULT-VALUE}.")
        int seconds;

        @Option(names = "--seed", defaultValue = "1", description = "Seeds every random choice. Default: ${DEFAULT-VALUE}.")
        long seed;

        @Option(names = "--writers", defaultValue = "3", description = "CLI writer processes. Default: ${DEFAULT-VALUE}.")
        int writers;

        @Option(names = "--mcp", defaultValue = "2", description = "MCP servers. Default: ${DEFAULT-VALUE}.")
        int mcp;

        @Option(names = "--in-flight", defaultValue = "3", description = "Calls in flight on each MCP server. Default: ${DEFAULT-VALUE}.")
        int inFlight;

        @Option(names = "--targets", defaultValue = "12", description = "Shared facts the processes race to supersede. Default: ${DEFAULT-VALUE}.")
        int targets;

        @Option(names = "--no-kills", description = "Run without SIGKILLing writer processes.")
        boolean noKills;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            if (seconds < 1 || writers < 1 || mcp < 0 || inFlight < 1 || targets < 1) {
                throw new dev.palimpsest.model.RejectedException(Parse.INVALID_ARGUMENT, "bench torture",
                        "--seconds, --writers, --in-flight and --targets must be at least 1, --mcp at least 0");
            }
            Path work = java.nio.file.Files.createTempDirectory(scratch.work(), "torture-");
            var r = new dev.palimpsest.bench.TortureBench(new dev.palimpsest.bench.TortureBench.Options(work, seed, seconds,
                    writers, mcp, inFlight, targets, !noKills), benchLog(), Main::run).run();
            if (json()) {
                printJson(r);
            } else {
                out().printf("torture: seed %d, %.1f s, %d operations (%.1f/s), %d kills%n", r.seed(), r.seconds(),
                        r.operations(), r.operationsPerSecond(), r.kills());
                out().println("  by kind: " + r.byKind());
                out().println("  checked: " + r.checked());
                r.violations().forEach(v -> out().println("  VIOLATION " + v));
                out().println(r.violations().isEmpty() ? "  every invariant held" : "  " + r.violations().size() + " violation(s)");
            }
            return r.violations().isEmpty() ? Main.OK : Main.AUDIT_VIOLATIONS;
        }
    }

    @Command(name = "web", description = "The web view's pages over HTTP on a scratch store of --facts claims served by"
            + " the hub in process: the first request of each page (cold), then p50/p99 of --samples more (warm); exit 3"
            + " when a page answers anything but 200 HTML.")
    static final class Web extends Context implements Callable<Integer> {
        @Option(names = "--facts", defaultValue = "100000", description = "Claims in the store. Default: ${DEFAULT-VALUE}.")
        int facts;

        @Option(names = "--batch", defaultValue = "100", description = "Facts per commit. Default: ${DEFAULT-VALUE}.")
        int batch;

        @Option(names = "--samples", defaultValue = "200", description = "Warm requests per page. Default: ${DEFAULT-VALUE}.")
        int samples;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            if (facts < 1 || batch < 1 || samples < 1) {
                throw new dev.palimpsest.model.RejectedException(Parse.INVALID_ARGUMENT, "bench web",
                        "--facts, --batch and --samples must be at least 1");
            }
            Path work = java.nio.file.Files.createTempDirectory(scratch.work(), "bench-web-");
            dev.palimpsest.bench.WebBench.Result r;
            try {
                r = new dev.palimpsest.bench.WebBench(new dev.palimpsest.bench.WebBench.Options(work, facts, batch, samples),
                        benchLog()).run();
            } finally {
                dev.palimpsest.bench.HubBench.delete(work);
            }
            if (json()) {
                printJson(r);
            } else {
                out().printf("web: %,d facts in %,d commits (built in %.1f s; hub, search index and commit-graph ready in %.1f s;"
                        + " audit of main %.1f s; load %.2f before, %.2f after)%n", r.facts(), r.commits(), r.buildSeconds(),
                        r.warmUpSeconds(), r.auditSeconds(), r.loadBefore(), r.loadAfter());
                r.warm().forEach((k, s) -> out().printf("  %-28s first %8.1f ms   p50 %7.2f ms  p99 %7.2f ms  (n=%d)%n", k,
                        r.firstMillis().get(k), s.p50Millis(), s.p99Millis(), s.n()));
                r.violations().forEach(v -> out().println("  VIOLATION " + v));
                out().println(r.violations().isEmpty() ? "  every page answered 200" : "  " + r.violations().size()
                        + " violation(s)");
            }
            return r.violations().isEmpty() ? Main.OK : Main.AUDIT_VIOLATIONS;
        }
    }

    @Command(name = "hub", description = "The hub under load: serve in process on a scratch store, MCP clients each"
            + " writing --writes facts over Streamable HTTP while --replicas clones loop write, pull, push over HTTP for"
            + " --seconds; then every acknowledged write must be live on the hub and every replica, every replica at the"
            + " hub's main and the audit clean (exit 3 when not). Reports p50/p99 per operation and pushes per second.")
    static final class Hub extends Context implements Callable<Integer> {
        @Option(names = "--mcp-clients", defaultValue = "4", description = "MCP clients, one session each. Default: ${DEFAULT-VALUE}.")
        int mcpClients;

        @Option(names = "--writes", defaultValue = "1000", description = "Writes per MCP client. Default: ${DEFAULT-VALUE}.")
        int writes;

        @Option(names = "--replicas", defaultValue = "8", description = "Replicas pulling, writing and pushing. Default: ${DEFAULT-VALUE}.")
        int replicas;

        @Option(names = "--seconds", defaultValue = "300", description = "How long the replicas loop. Default: ${DEFAULT-VALUE}.")
        int seconds;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            if (mcpClients < 0 || writes < 0 || replicas < 0 || seconds < 1 || mcpClients + replicas < 1) {
                throw new dev.palimpsest.model.RejectedException(Parse.INVALID_ARGUMENT, "bench hub",
                        "--seconds must be at least 1, the others at least 0, with at least one client or replica");
            }
            Path work = java.nio.file.Files.createTempDirectory(scratch.work(), "bench-hub-");
            dev.palimpsest.bench.HubBench.Result r;
            try {
                r = new dev.palimpsest.bench.HubBench(new dev.palimpsest.bench.HubBench.Options(work, mcpClients, writes,
                        replicas, seconds), benchLog()).run();
            } finally {
                dev.palimpsest.bench.HubBench.delete(work);
            }
            if (json()) {
                printJson(r);
            } else {
                out().printf("hub: %.1f s, %d MCP clients, %d replicas (load %.2f before, %.2f after)%n", r.seconds(),
                        r.mcpClients(), r.replicas(), r.loadBefore(), r.loadAfter());
                out().printf("  acknowledged: %d MCP writes (%d errors), %d pushed facts in %d pushes (%d merged by the hub;"
                        + " %.2f pushes/s), %d push retries%n", r.mcpAcknowledged(), r.mcpErrors(), r.pushedFacts(),
                        r.pushes(), r.mergedPushes(), r.pushesPerSecond(), r.pushRetries());
                r.latency().forEach((k, s) -> out().printf("  %-26s p50 %8.1f ms  p99 %8.1f ms  (n=%d)%n", k,
                        s.p50Millis(), s.p99Millis(), s.n()));
                r.pushRefusals().forEach((m, n) -> out().printf("  refused %d x: %s%n", n, m));
                r.violations().forEach(v -> out().println("  VIOLATION " + v));
                out().println(r.violations().isEmpty() ? "  nothing acknowledged lost, every replica converged, audit clean"
                        : "  " + r.violations().size() + " violation(s)");
            }
            return r.violations().isEmpty() ? Main.OK : Main.AUDIT_VIOLATIONS;
        }
    }

    @Command(name = "forget", description = "forget of one fact with an N-member closure (p50 wall and CPU), sealed vs"
            + " plaintext reads, audit rate sealed vs plaintext.")
    static final class ForgetBenchCmd extends Context implements Callable<Integer> {
        @Option(names = "--closure", defaultValue = "1000", description = "Facts citing the forgotten one. Default: ${DEFAULT-VALUE}.")
        int closure;

        @Option(names = "--runs", defaultValue = "7", description = "Measured forgets (after 2 warm-up ones). Default: ${DEFAULT-VALUE}.")
        int runs;

        @Option(names = "--reads", defaultValue = "2000", description = "Facts read of each kind. Default: ${DEFAULT-VALUE}.")
        int reads;

        @Option(names = "--commits", defaultValue = "3000", description = "Commits in each audited store. Default: ${DEFAULT-VALUE}.")
        int commits;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            var r = new dev.palimpsest.bench.ForgetBench(scratch.work(), benchLog()).run(closure, runs, reads, commits);
            if (json()) {
                printJson(r);
            }
            return Main.OK;
        }
    }

    @Command(name = "dependents", description = "dependents --transitive over a closure of N facts: p50 and p99.")
    static final class DependentsBench extends Context implements Callable<Integer> {
        @Option(names = "--nodes", defaultValue = "10000", description = "Facts in the closure. Default: ${DEFAULT-VALUE}.")
        int nodes;

        @Option(names = "--samples", defaultValue = "200", description = "Timed queries. Default: ${DEFAULT-VALUE}.")
        int samples;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            Path work = scratch.work();
            var r = new dev.palimpsest.bench.DerivationBench(work, benchLog()).dependents(nodes, samples);
            if (json()) {
                printJson(r);
            }
            return Main.OK;
        }
    }

    @Command(name = "file", description = "file put of an M MiB file beside git hash-object -w on the same file.")
    static final class FileBench extends Context implements Callable<Integer> {
        @Option(names = "--mib", defaultValue = "100", description = "File size in MiB. Default: ${DEFAULT-VALUE}.")
        int mib;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            Path work = scratch.work();
            var r = new dev.palimpsest.bench.DerivationBench(work, benchLog()).file(mib);
            if (json()) {
                printJson(r);
            }
            return Main.OK;
        }
    }

    @Command(name = "commit", description = "Signed one-fact commit p50 at several store sizes, beside git commit -S.")
    static final class Commit extends Context implements Callable<Integer> {
        @Option(names = "--sizes", split = ",", defaultValue = "1000,100000,1000000", paramLabel = "N,N...",
                description = "Store sizes (facts) to measure at. Default: ${DEFAULT-VALUE}.")
        int[] sizes;

        @Option(names = "--samples", defaultValue = "500", description = "Timed commits per size. Default: ${DEFAULT-VALUE}.")
        int samples;

        @Option(names = "--git-samples", defaultValue = "30", description = "0 skips the git CLI.")
        int gitSamples;

        @Option(names = "--batch", defaultValue = "100", description = "Facts per commit for batched ingest.")
        int batch;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            Path work = scratch.work();
            benchLog().println("bench commit: sizes " + Arrays.toString(sizes) + ", " + samples + " samples, fsync off");
            List<CommitBench.Row> rows = new CommitBench(work, benchLog()).run(sizes, samples, gitSamples, batch);
            if (json()) {
                printJson(rows);
            } else {
                out().println();
                out().printf("%-10s %-12s %-12s %-12s %-14s %-16s%n", "facts", "ours p50", "ours p99",
                        "git p50", "ratio to 1st", "ingest facts/s");
                double first = rows.get(0).palimpsest().p50Millis();
                for (CommitBench.Row r : rows) {
                    out().printf("%-10d %-12.3f %-12.3f %-12s %-14.2f %-16.0f%n", r.facts(), r.palimpsest().p50Millis(),
                            r.palimpsest().p99Millis(),
                            r.gitCli() == null ? "-" : String.format("%.1f", r.gitCli().p50Millis()),
                            r.palimpsest().p50Millis() / first, r.ingestFactsPerSecond());
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "audit", description = "Audit rate (commits/s) on a store of single-fact commits, beside git log %%G?.")
    static final class Audit extends Context implements Callable<Integer> {
        @Option(names = "--commits", defaultValue = "10000", description = "Commits in the store. Default: ${DEFAULT-VALUE}.")
        int commits;

        @Option(names = "--warmup", defaultValue = "5", description = "Audit runs to warm the JIT up (not measured).")
        int warmup;

        @Option(names = "--runs", defaultValue = "5", description = "Measured audit runs (median reported).")
        int runs;

        @Option(names = "--no-git", description = "Skip git log --format=%%G?.")
        boolean noGit;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            Path work = scratch.work();
            benchLog().println("bench audit: " + commits + " commits, fsync off, "
                    + Runtime.getRuntime().availableProcessors() + " cores");
            AuditBench.Result r = new AuditBench(work, benchLog()).run(commits, warmup, runs, !noGit);
            if (json()) {
                printJson(r);
            } else {
                out().printf("%naudit: %.0f commits/s (median of %d runs after %d warm-up runs; %.0f us CPU per commit;"
                        + " first, cold run %.0f commits/s); git log %%G?: %s; %d violations; load average %.1f%n",
                        r.auditCommitsPerSecond(), runs, warmup, r.auditCpuMicrosPerCommit(), r.coldCommitsPerSecond(),
                        Double.isNaN(r.gitLogCommitsPerSecond()) ? "skipped"
                                : String.format("%.0f commits/s %s", r.gitLogCommitsPerSecond(), r.gitStatuses()),
                        r.violations(), r.loadAverage());
            }
            return Main.OK;
        }
    }

    @Command(name = "pull", description = "Audited pull of N new commits beside git fetch + git log --show-signature.")
    static final class Pull extends Context implements Callable<Integer> {
        @Option(names = "--commits", defaultValue = "10000", description = "New commits pulled. Default: ${DEFAULT-VALUE}.")
        int commits;

        @Option(names = "--runs", defaultValue = "5", description = "Timed pulls, each into a fresh copy (median reported)."
                + " Default: ${DEFAULT-VALUE}.")
        int runs;

        @Option(names = "--warmup", defaultValue = "5", description = "Pulls before the timed ones, not counted"
                + " (the JIT compiles the pull's code meanwhile). Default: ${DEFAULT-VALUE}.")
        int warmup;

        @Option(names = "--no-git", description = "Skip git fetch + git log --show-signature.")
        boolean noGit;

        @Option(names = "--keep", description = "Keep the built stores in <dir>/bench-pull-<commits> and reuse them.")
        boolean keep;

        @Option(names = "--back-to-back", description = "No full collection before each pull: each pull collects"
                + " what the ones before it left, as in a process that pulls all day.")
        boolean backToBack;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            if (commits < 1 || runs < 1) {
                throw new Main.UsageException("--commits and --runs must be at least 1");
            }
            if (warmup < 0) {
                throw new Main.UsageException("--warmup must be 0 or more");
            }
            benchLog().println("bench pull: " + commits + " new commits over a file remote, fsync off, "
                    + Runtime.getRuntime().availableProcessors() + " cores");
            dev.palimpsest.bench.PullBench.Result r = new dev.palimpsest.bench.PullBench(scratch.work(), benchLog())
                    .run(commits, warmup, runs, !noGit, keep, !backToBack);
            if (json()) {
                printJson(r);
            } else {
                out().printf("%npull (fetch + audit + fast-forward), %d runs after %d warm-up%s: p50 %.2f s, p90 %.2f s"
                        + " (the process's first pull %.2f s); CPU p50: process %.2f s, calling thread %.2f s;"
                        + " load average %.2f before, %.2f after%n",
                        r.runs(), r.warmup(), r.backToBack() ? ", back to back" : "", r.medianPullSeconds(),
                        r.p90PullSeconds(), r.firstPullSeconds(),
                        r.medianPullCpuSeconds(), r.medianThreadCpuSeconds(), r.loadBefore(), r.loadAfter());
                if (noGit) {
                    out().println("git fetch + git log --show-signature: skipped (--no-git); target: pull <= 3 s");
                } else {
                    double pair = r.gitFetchSeconds() + r.gitLogSeconds();
                    out().printf("git fetch %.2f s + git log --show-signature %.2f s = %.2f s (%d good signatures):"
                            + " %.1fx the pull p50 (targets: pull <= 3 s, >= 50x); the floor alone is %.1fx%n",
                            r.gitFetchSeconds(), r.gitLogSeconds(), pair, r.gitGoodSignatures(), r.ratio(),
                            pair / r.floorSeconds());
                }
                out().printf("floor %.2f s: the pull p50 is %.1fx its floor%n", r.floorSeconds(),
                        r.medianPullSeconds() / r.floorSeconds());
            }
            return Main.OK;
        }
    }

    @Command(name = "predicates", description = "factLiveAtCommit / factExistsAt / FactValidAt p50 at random past commits as history grows.")
    static final class Predicates extends Context implements Callable<Integer> {
        @Option(names = "--batch", defaultValue = "1",
                description = "Facts asserted per commit while the facts are first written. Default: ${DEFAULT-VALUE}.")
        int batch;
        @Option(names = "--commits", defaultValue = "100000", description = "Commits in the store. Default: ${DEFAULT-VALUE}.")
        int commits;

        @Option(names = "--facts", defaultValue = "10000", description = "Distinct facts. Default: ${DEFAULT-VALUE}.")
        int facts;

        @Option(names = "--samples", defaultValue = "20000", description = "Timed queries. Default: ${DEFAULT-VALUE}.")
        int samples;

        @Option(names = "--git-samples", defaultValue = "30", description = "0 skips the git CLI.")
        int gitSamples;

        @Option(names = "--seed", defaultValue = "42", description = "Random seed. Default: ${DEFAULT-VALUE}.")
        long seed;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            if (facts < 1 || batch < 1 || (long) commits * batch <= facts) {
                throw new Main.UsageException("--commits times --batch must exceed --facts (>= 1): the first commits"
                        + " assert the facts");
            }
            Path work = scratch.work();
            benchLog().println("bench predicates: " + commits + " commits over " + facts + " facts, seed " + seed);
            dev.palimpsest.bench.PredicateBench.Result r = new dev.palimpsest.bench.PredicateBench(
                    work, benchLog()).run(commits, facts, batch, samples, gitSamples, seed);
            if (json()) {
                printJson(r);
            }
            return Main.OK;
        }
    }

    @Command(name = "claims", description = "current and contradictions --subject p50/p99 at main and at a random past"
            + " commit, on 100k claims over 10k entities.")
    static final class ClaimsBenchCmd extends Context implements Callable<Integer> {
        @Option(names = "--claims", defaultValue = "100000", description = "Claims written. Default: ${DEFAULT-VALUE}.")
        int claims;

        @Option(names = "--entities", defaultValue = "10000", description = "Distinct subjects. Default: ${DEFAULT-VALUE}.")
        int entities;

        @Option(names = "--batch", defaultValue = "100", description = "Claims per commit. Default: ${DEFAULT-VALUE}.")
        int batch;

        @Option(names = "--samples", defaultValue = "20000", description = "Timed queries of each kind. Default: ${DEFAULT-VALUE}.")
        int samples;

        @Option(names = "--seed", defaultValue = "42", description = "Random seed. Default: ${DEFAULT-VALUE}.")
        long seed;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            if (claims < 10 || entities < 1 || batch < 1 || samples < 1) {
                throw new Main.UsageException("--claims >= 10, --entities, --batch and --samples >= 1");
            }
            Path work = scratch.work();
            benchLog().println("bench claims: " + claims + " claims over " + entities + " entities, " + batch
                    + " per commit, seed " + seed);
            dev.palimpsest.bench.ClaimsBench.Result r = new dev.palimpsest.bench.ClaimsBench(work, benchLog())
                    .run(claims, entities, batch, samples, seed);
            if (json()) {
                printJson(r);
            }
            return Main.OK;
        }
    }

    @Command(name = "search", description = "Recall at scale: search and brief p50 at main and at a past commit,"
            + " incremental index update per commit, cold rebuild, beside a rebuild-per-query scan and git grep.")
    static final class SearchBenchCmd extends Context implements Callable<Integer> {
        @Option(names = "--facts", defaultValue = "100000", description = "Claims written. Default: ${DEFAULT-VALUE}.")
        int facts;

        @Option(names = "--entities", defaultValue = "10000", description = "Distinct subjects. Default: ${DEFAULT-VALUE}.")
        int entities;

        @Option(names = "--batch", defaultValue = "100",
                description = "Claims per commit: N, or MIN-MAX drawn uniformly per commit (e.g. 1-10, agents' writes)."
                        + " Default: ${DEFAULT-VALUE}.")
        String batch;

        @Option(names = "--samples", defaultValue = "2000", description = "Timed questions of each kind. Default: ${DEFAULT-VALUE}.")
        int samples;

        @Option(names = "--small-commits", defaultValue = "20000",
                description = "One-fact commits of a second history, whose cold rebuild is timed too (0: none)."
                        + " Default: ${DEFAULT-VALUE}.")
        int smallCommits;

        @Option(names = "--extra", defaultValue = "200",
                description = "Commits applied on the writer's path, then as many caught up from git. Default: ${DEFAULT-VALUE}.")
        int extra;

        @Option(names = "--seed", defaultValue = "42", description = "Random seed. Default: ${DEFAULT-VALUE}.")
        long seed;

        @Option(names = "--keep", description = "Keep the built history in <dir>/bench-search-<facts>-<batch>-<seed>"
                + " and reuse it (the runs that reuse it ask the same questions).")
        boolean keep;

        @Option(names = "--grown", description = "Grow the index while writing the history, commit by commit (each"
                + " write indexed and embedded as it lands, as agents fill a store), and ask the questions of that index"
                + " instead of one rebuilt from git. Not with --keep.")
        boolean grown;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            int min;
            int max;
            try {
                int dash = batch.indexOf('-');
                min = Integer.parseInt(dash < 0 ? batch.trim() : batch.substring(0, dash).trim());
                max = dash < 0 ? min : Integer.parseInt(batch.substring(dash + 1).trim());
            } catch (NumberFormatException e) {
                throw new Main.UsageException("--batch is N or MIN-MAX, got '" + batch + "'");
            }
            if (facts < 10 || entities < 1 || min < 1 || max < min || samples < 1 || extra < 1
                    || smallCommits < 0) {
                throw new Main.UsageException("--facts >= 10, --entities, --batch (1 <= MIN <= MAX), --samples and --extra >= 1,"
                        + " --small-commits >= 0");
            }
            if (keep && grown) {
                throw new Main.UsageException("--grown and --keep exclude each other: a grown index is not kept");
            }
            benchLog().println("bench search: " + facts + " facts over " + entities + " entities, " + batch
                    + " per commit, seed " + seed);
            dev.palimpsest.bench.SearchBench.Result r = new dev.palimpsest.bench.SearchBench(scratch.work(), benchLog(),
                    storeOptions().embedder()).run(facts, entities, min, max, samples, extra, smallCommits, seed, keep,
                            grown);
            if (json()) {
                printJson(r);
            }
            return Main.OK;
        }
    }

    @Command(name = "recall", description = "Recall@5/10/25/50 per question type on a question-to-evidence data file"
            + " (JSON lines; see docs/recall.md): each evidence passage a fact, plain and claims-shaped, each question"
            + " the query.")
    static final class RecallBenchCmd extends Context implements Callable<Integer> {
        @Option(names = "--data", required = true, paramLabel = "FILE", description = "The data file (JSON lines).")
        Path data;

        @Option(names = "--questions", defaultValue = "0", description = "Ask only the first N questions (0: all)."
                + " Default: ${DEFAULT-VALUE}.")
        int questions;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            if (questions < 0 || !Files.isRegularFile(data)) {
                throw new Main.UsageException("--data names a readable file and --questions >= 0");
            }
            var r = new dev.palimpsest.bench.RecallBench(scratch.work(), benchLog()).run(data, questions);
            if (json()) {
                printJson(r);
            }
            return Main.OK;
        }
    }

    @Command(name = "receipts", description = "Cleanup by receipts on a seeded PolyGraph-shaped graph (~24k artifacts).")
    static final class ReceiptsBenchCmd extends Context implements Callable<Integer> {
        @Option(names = "--seed", defaultValue = "42", description = "Random seed. Default: ${DEFAULT-VALUE}.")
        long seed;

        @Option(names = "--samples", defaultValue = "2000", description = "Timed operations. Default: ${DEFAULT-VALUE}.")
        int samples;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            Path work = scratch.work();
            benchLog().println("bench receipts: seed " + seed + ", " + samples + " samples, fsync off");
            var r = new dev.palimpsest.bench.ReceiptsBench(work, benchLog()).run(seed, samples);
            if (json()) {
                printJson(r);
            }
            return Main.OK;
        }
    }

    @Command(name = "mcp", description = "Round trips through palimpsest mcp over stdio with the MCP SDK client (show, one-fact"
            + " assert), beside one CLI process per call; and the byte size of tools/list for the core and all tool sets.")
    static final class McpBenchCmd extends Context implements Callable<Integer> {
        @Option(names = "--samples", defaultValue = "1000", description = "Timed calls of each tool. Default: ${DEFAULT-VALUE}.")
        int samples;

        @Option(names = "--warmup", defaultValue = "3000", description = "Untimed calls first, so both JVMs have compiled the hot path. Default: ${DEFAULT-VALUE}.")
        int warmup;

        @Option(names = "--cli-samples", defaultValue = "5", description = "CLI processes per operation. Default: ${DEFAULT-VALUE}.")
        int cliSamples;

        @Option(names = "--cold-samples", defaultValue = "10", description = "Fresh server processes timed from their"
                + " spawn to initialize, a first show and a first search answered (0: none). Default: ${DEFAULT-VALUE}.")
        int coldSamples;

        @Option(names = "--cold-facts", defaultValue = "3000", description = "Claims in the store the cold start opens"
                + " (built once in the scratch folder, then reused). Default: ${DEFAULT-VALUE}.")
        int coldFacts;

        @Option(names = "--cold-only", description = "Measure the cold start only, not the round trips.")
        boolean coldOnly;

        @Option(names = "--server-jvm-option", paramLabel = "OPT", description = "A JVM option for every server and CLI"
                + " process started (repeatable), e.g. -XX:TieredStopAtLevel=1.")
        java.util.List<String> serverJvmOptions = new java.util.ArrayList<>();

        @Option(names = "--cds-archive", paramLabel = "FILE", description = "Write a class data sharing archive of the"
                + " server's classes to FILE with one untimed server first, then start every timed server with it.")
        Path cdsArchive;

        @Mixin
        Scratch scratch;

        @Override
        public Integer call() throws Exception {
            if (samples < 1 || warmup < 0 || cliSamples < 1 || coldSamples < 0 || coldFacts < 1
                    || (coldOnly && coldSamples < 1)) {
                throw new Main.UsageException("--samples, --cli-samples and --cold-facts >= 1, --warmup and"
                        + " --cold-samples >= 0, --cold-only needs --cold-samples >= 1");
            }
            java.util.Map<String, Object> out = new java.util.LinkedHashMap<>();
            if (coldSamples > 0) {
                out.put("cold", new dev.palimpsest.bench.McpColdBench(scratch.work(), benchLog()).run(coldFacts,
                        coldSamples, dev.palimpsest.bench.McpBench.serverCommand(serverJvmOptions),
                        java.util.Optional.ofNullable(cdsArchive)));
            }
            if (!coldOnly) {
                out.put("warm", new dev.palimpsest.bench.McpBench(scratch.work(), benchLog()).run(samples, warmup,
                        cliSamples, dev.palimpsest.bench.McpBench.serverCommand(serverJvmOptions)));
                out.put("toolsList", new dev.palimpsest.bench.McpBench(scratch.work(), benchLog()).toolsList());
            }
            if (json()) {
                printJson(out);
            }
            return Main.OK;
        }
    }
}
