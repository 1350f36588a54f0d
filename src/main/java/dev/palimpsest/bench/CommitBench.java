package dev.palimpsest.bench;

import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.internal.crypto.SecretKeyFiles;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Signed one-fact commit latency at several store sizes, beside {@code git commit -S} through the
 * git CLI on the same trees in the same run, plus batched ingest throughput. Fsync is off for both
 * (git does not fsync loose objects by default either).
 */
public final class CommitBench {
    /** One size's results; git stats are null when the git CLI was skipped. */
    public record Row(int facts, double setupSeconds, Stats palimpsest, Stats gitCli, double ingestFactsPerSecond) {}

    private static final ActorName ACTOR = ActorName.of("bench");
    private final Path workDir;
    private final PrintWriter log;

    public CommitBench(Path workDir, PrintWriter log) {
        this.workDir = workDir;
        this.log = log;
    }

    public List<Row> run(int[] sizes, int samples, int gitSamples, int batch) throws IOException, PalimpsestException {
        List<Row> rows = new ArrayList<>();
        for (int size : sizes) {
            rows.add(runSize(size, samples, gitSamples, batch));
        }
        return rows;
    }

    private Row runSize(int size, int samples, int gitSamples, int batch) throws IOException, PalimpsestException {
        Path dir = Files.createTempDirectory(workDir, "bench-" + size + "-");
        KeyHome home = new KeyHome(dir.resolve("home"));
        Path storeDir = dir.resolve("store.git");
        StoreOptions opts = StoreOptions.defaults().withFsync(false);
        long t0 = System.nanoTime();
        try (Store store = Store.initializer(storeDir).home(home).actor(ACTOR).options(opts).create()) {
            int chunk = 100_000;
            for (int done = 0; done < size; done += chunk) {
                Transaction tx = store.begin(ACTOR);
                for (int i = done; i < Math.min(size, done + chunk); i++) {
                    tx.assertFact(FactSpec.of(Kind.CLAIM, "seed fact number " + i).id(FactId.of("seed-" + i)));
                }
                tx.commit();
                log.printf("  [%d facts] loaded %d%n", size, Math.min(size, done + chunk));
                log.flush();
            }
            double setup = (System.nanoTime() - t0) / 1e9;
            for (int i = 0; i < 300; i++) {
                oneFact(store, "warm-" + i);
            }
            long[] ours = new long[samples];
            for (int i = 0; i < samples; i++) {
                long s = System.nanoTime();
                oneFact(store, "sample-" + i);
                ours[i] = System.nanoTime() - s;
            }
            Stats p = Stats.of(ours);
            log.printf("  [%d facts] palimpsest signed one-fact commit: %s%n", size, p);
            log.flush();
            double ingest = ingest(store, batch);
            log.printf("  [%d facts] batched ingest (%d facts/commit): %.0f facts/s%n", size, batch, ingest);
            log.flush();
            Stats g = gitSamples > 0 ? gitCli(store, dir, home, gitSamples, size) : null;
            return new Row(size, setup, p, g, ingest);
        } finally {
            deleteTree(dir);
        }
    }

    private static CommitResult oneFact(Store store, String id) throws PalimpsestException {
        Transaction tx = store.begin(ACTOR);
        tx.assertFact(FactSpec.of(Kind.CLAIM, "a fact written by the benchmark: " + id).id(FactId.of(id)));
        return tx.commit();
    }

    private static double ingest(Store store, int batch) throws PalimpsestException {
        int commits = Math.max(5, 20_000 / batch);
        long s = System.nanoTime();
        for (int c = 0; c < commits; c++) {
            Transaction tx = store.begin(ACTOR);
            for (int i = 0; i < batch; i++) {
                tx.assertFact(FactSpec.of(Kind.CLAIM, "ingested fact " + c + "/" + i)
                        .id(FactId.of("ingest-" + c + "-" + i)));
            }
            tx.commit();
        }
        return (double) commits * batch / ((System.nanoTime() - s) / 1e9);
    }

    /**
     * {@code git commit -S} on the same tree: a scratch repository borrows the store's objects
     * (alternates), its index is read from main's tree; each sample stages one new fact file with
     * {@code git update-index} and commits it signed by the same key imported into a scratch gpg home.
     */
    private Stats gitCli(Store store, Path dir, KeyHome home, int samples, int size) throws IOException {
        Path gnupg = Files.createDirectory(dir.resolve("gnupg"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path repo = dir.resolve("git-cli");
        Path work = Files.createDirectories(dir.resolve("git-cli-work"));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("GNUPGHOME", gnupg.toString());
        env.put("GIT_DIR", repo.toString());
        env.put("GIT_WORK_TREE", work.toString());
        env.put("GIT_AUTHOR_NAME", ACTOR.value());
        env.put("GIT_AUTHOR_EMAIL", "bench@palimpsest.local");
        env.put("GIT_COMMITTER_NAME", ACTOR.value());
        env.put("GIT_COMMITTER_EMAIL", "bench@palimpsest.local");
        Proc.run(dir, env, null, "gpg", "--batch", "--quiet", "--import",
                new SecretKeyFiles(home.dir()).path(ACTOR).toString());
        Proc.run(dir, env, null, "git", "init", "-q", repo.toString());
        Files.writeString(repo.resolve("objects/info/alternates"), store.gitDir().resolve("objects") + "\n");
        String fpr = Proc.run(dir, env, null, "gpg", "--batch", "--with-colons", "--list-secret-keys")
                .lines().filter(l -> l.startsWith("fpr:")).findFirst().orElseThrow().split(":")[9];
        Proc.run(dir, env, null, "git", "config", "user.signingkey", fpr);
        Proc.run(dir, env, null, "git", "config", "commit.gpgsign", "true");
        Proc.run(dir, env, null, "git", "update-ref", "refs/heads/master", store.head().hex());
        Proc.run(dir, env, null, "git", "symbolic-ref", "HEAD", "refs/heads/master");
        Proc.run(dir, env, null, "git", "read-tree", "HEAD");
        long[] nanos = new long[samples];
        for (int i = 0; i < samples; i++) {
            FactId id = FactId.of("git-" + i);
            byte[] body = ("id: \"" + id + "\"\nkind: \"claim\"\nbody: \"written by git\"\n")
                    .getBytes(StandardCharsets.UTF_8);
            long s = System.nanoTime();
            String blob = Proc.run(dir, env, body, "git", "hash-object", "-w", "--stdin").trim();
            Proc.run(dir, env, null, "git", "update-index", "--add", "--cacheinfo",
                    "100644," + blob + "," + StorePaths.factPath(Kind.CLAIM, id));
            Proc.run(dir, env, null, "git", "commit", "-q", "-S", "--no-verify", "-m", "assert " + id);
            nanos[i] = System.nanoTime() - s;
        }
        Stats g = Stats.of(nanos);
        log.printf("  [%d facts] git CLI hash-object + update-index + commit -S: %s%n", size, g);
        log.flush();
        return g;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
