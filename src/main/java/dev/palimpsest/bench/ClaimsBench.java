package dev.palimpsest.bench;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.StoreOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The claim lookups at scale: {@code claims} claims over {@code entities} entities (5 predicates,
 * objects drawn from 4 values so that contradictions abound; one claim in ten, after the first
 * tenth, supersedes an earlier claim of its entity), written {@code batch} claims per signed
 * commit; then {@code current} and {@code contradictions --subject} through the public API, at
 * main and at a random past commit, for a random entity; then a cold rebuild of the claims index
 * from git and the open of a store with the persisted index.
 */
public final class ClaimsBench {
    /** Results (durations in the units their names say). */
    public record Result(int claims, int entities, int commits, Stats currentHead, Stats currentPast,
            Stats contradictionsHead, Stats contradictionsPast, double buildSeconds, double rebuildSeconds,
            double openMillis, double claimsOpenMillis, long indexBytes) {}

    private static final ActorName ACTOR = ActorName.of("bench");
    private static final String[] PREDICATES = {"depends on", "times out after", "listens on", "owned by", "runs in"};
    private static final String[] OBJECTS = {"alpha", "beta", "gamma", "delta"};
    private final Path workDir;
    private final PrintWriter log;

    public ClaimsBench(Path workDir, PrintWriter log) {
        this.workDir = workDir;
        this.log = log;
    }

    private static String entity(int e) {
        return "Service-" + e;
    }

    public Result run(int claims, int entities, int batch, int samples, long seed) throws IOException, PalimpsestException {
        Path dir = Files.createTempDirectory(workDir, "bench-claims-");
        KeyHome home = new KeyHome(dir.resolve("home"));
        Path gitDir = dir.resolve("store.git");
        StoreOptions opts = StoreOptions.defaults().withFsync(false);
        Random rnd = new Random(seed);
        List<CommitId> history = new ArrayList<>();
        long t0 = System.nanoTime();
        int[] entityOf = new int[claims];
        boolean[] superseded = new boolean[claims];
        Result result;
        try (Store store = Store.initializer(gitDir).home(home).actor(ACTOR).options(opts).create()) {
            Transaction first = store.begin(ACTOR);
            FactId src = first.assertFact(FactSpec.of(Kind.SOURCE, "the design documents").id(FactId.of("docs")));
            first.commit();
            store.claims().current("warm"); // open the claims index: every write then feeds it
            int n = 0;
            while (n < claims) {
                Transaction tx = store.begin(ACTOR);
                int end = Math.min(claims, n + batch);
                int batchStart = n;
                for (; n < end; n++) {
                    int e = rnd.nextInt(entities);
                    String p = PREDICATES[rnd.nextInt(PREDICATES.length)];
                    ClaimSpec spec = ClaimSpec.of(entity(e), p, OBJECTS[rnd.nextInt(OBJECTS.length)], src)
                            .id(FactId.of("c" + n)).run("run-" + (n / batch));
                    entityOf[n] = e;
                    int old = n >= claims / 10 && rnd.nextInt(10) == 0 ? rnd.nextInt(batchStart) : -1;
                    if (old >= 0 && !superseded[old]) {
                        superseded[old] = true;
                        entityOf[n] = entityOf[old];
                        tx.supersede(FactId.of("c" + old), spec.toFactSpec());
                    } else {
                        tx.assertFact(spec.toFactSpec());
                    }
                }
                history.add(tx.commit().id());
                if (history.size() % 100 == 0) {
                    log.printf("  %,d claims in %,d commits (%.0f s)%n", n, history.size(), (System.nanoTime() - t0) / 1e9);
                    log.flush();
                }
            }
            double build = (System.nanoTime() - t0) / 1e9;
            CommitId head = store.head();
            var api = store.claims();
            // warm up
            for (int i = 0; i < samples; i++) {
                api.at(head).current(entity(rnd.nextInt(entities)));
                api.at(history.get(rnd.nextInt(history.size()))).contradictions(entity(rnd.nextInt(entities)));
            }
            long[] curHead = new long[samples];
            long[] curPast = new long[samples];
            long[] conHead = new long[samples];
            long[] conPast = new long[samples];
            long sink = 0;
            for (int i = 0; i < samples; i++) {
                String e = entity(rnd.nextInt(entities));
                CommitId past = history.get(rnd.nextInt(history.size()));
                long a = System.nanoTime();
                sink += api.at(head).current(e).size();
                long b = System.nanoTime();
                sink += api.at(past).current(e).size();
                long c = System.nanoTime();
                sink += api.at(head).contradictions(e).size();
                long d = System.nanoTime();
                sink += api.at(past).contradictions(e).size();
                long f = System.nanoTime();
                curHead[i] = b - a;
                curPast[i] = c - b;
                conHead[i] = d - c;
                conPast[i] = f - d;
            }
            log.println("  (checksum " + sink + ")");
            Path file = gitDir.resolve("palimpsest-index/claims-v1.log");
            long bytes = Files.size(file);
            Files.delete(file);
            long r0 = System.nanoTime();
            try (Store again = Store.open(gitDir, home, opts)) {
                again.claims().current("x");
            }
            double rebuild = (System.nanoTime() - r0) / 1e9;
            long o0 = System.nanoTime();
            double claimsOpen;
            try (Store again = Store.open(gitDir, home, opts)) {
                long o1 = System.nanoTime();
                again.claims().current("x");
                claimsOpen = (System.nanoTime() - o1) / 1e6;
            }
            double open = (System.nanoTime() - o0) / 1e6;
            result = new Result(claims, entities, history.size() + 2, Stats.of(curHead), Stats.of(curPast),
                    Stats.of(conHead), Stats.of(conPast), build, rebuild, open, claimsOpen, bytes);
        }
        log.printf("%,d claims over %,d entities in %,d commits (built in %.1f s)%n", result.claims(), result.entities(),
                result.commits(), result.buildSeconds());
        log.println("current at main:                   " + result.currentHead().micros());
        log.println("current at a random past commit:   " + result.currentPast().micros());
        log.println("contradictions --subject at main:  " + result.contradictionsHead().micros());
        log.println("contradictions --subject, past:    " + result.contradictionsPast().micros());
        log.printf("claims index: %,d bytes; cold rebuild from git (open + first question) %.2f s; open with it %.0f ms"
                + " (of which loading the claims index %.0f ms)%n", result.indexBytes(), result.rebuildSeconds(),
                result.openMillis(), result.claimsOpenMillis());
        log.flush();
        return result;
    }
}
