package dev.palimpsest.cli;

import dev.palimpsest.bench.TortureBench;
import java.io.ByteArrayInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;

/**
 * One process of the torture bench ({@link TortureBench}): until its deadline, runs random CLI command lines against one
 * store (each opens and closes the store, as a CLI process does) and appends what it was told to
 * its log, one flushed line per event, so a SIGKILL loses at most the line being written:
 * {@code op KIND EXIT}, {@code ack ID}, {@code sealed ID TOKEN}, {@code super TARGET ID},
 * {@code forgot ID TOKEN MILLIS} (after the forget's exit 0), {@code expired ID MILLIS} (an expire
 * that returned at MILLIS forgot ID), {@code seen TOKEN MILLIS} ({@code rseen} on the replica: a
 * secret token in an answer to a read that started at MILLIS) and {@code synced START END} (a sync
 * that pulled and pushed).
 *
 * <p>Arguments: ROLE (writer or replica) STORE HOME SEED LOG DEADLINE-MILLIS TARGETS.
 */
public final class TortureWorker {
    private final String role;
    private final String store;
    private final String home;
    private final Random rnd;
    private final String prefix;
    private final OutputStream log;
    private final int targets;
    private final List<String[]> sealed = new ArrayList<>();
    private final List<String> claims = new ArrayList<>();
    private int n;
    /** Reads, which never fail on a healthy store. */
    private static final java.util.Set<String> READS = java.util.Set.of("search", "brief", "dead-ends");

    private TortureWorker(String[] a) throws IOException {
        role = a[0];
        store = a[1];
        home = a[2];
        long seed = Long.parseLong(a[3]);
        rnd = new Random(seed);
        prefix = (role.equals("replica") ? "r" : "w") + Long.toHexString(seed & 0xffffffL);
        log = new FileOutputStream(a[4], true);
        targets = Integer.parseInt(a[6]);
    }

    public static void main(String[] args) throws Exception {
        TortureWorker w = new TortureWorker(args);
        long deadline = Long.parseLong(args[5]);
        while (System.currentTimeMillis() < deadline) {
            if (w.role.equals("replica")) {
                w.replicaStep();
            } else {
                w.writerStep();
            }
        }
        System.exit(0);
    }

    private void writerStep() throws IOException {
        int r = rnd.nextInt(100);
        if (r < 22) {
            claim();
        } else if (r < 37) {
            sealedNote();
        } else if (r < 52) {
            String target = "t-" + rnd.nextInt(targets);
            String id = nextId("s");
            if (run("supersede", "supersede", target, "--actor", "alice", "--id", id, "--body",
                    "A correction of " + target + " by " + prefix) == 0) {
                line("ack " + id);
                line("super " + target + " " + id);
            }
        } else if (r < 57) {
            String id = "t-" + rnd.nextInt(targets);
            if (run("assert-target", "assert", "--actor", "alice", "--id", id, "--body", "Target " + id + " stated.") == 0) {
                line("ack " + id);
            }
        } else if (r < 67 && !sealed.isEmpty()) {
            String[] s = sealed.remove(rnd.nextInt(sealed.size()));
            if (run("forget", "forget", s[0], "--actor", "alice", "--reason", "torture erasure") == 0) {
                line("forgot " + s[0] + " " + s[1] + " " + System.currentTimeMillis());
            }
        } else if (r < 70) {
            String out = capture("expire", "expire", "--actor", "alice", "--json");
            long done = System.currentTimeMillis();
            Matcher m = java.util.regex.Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"").matcher(out);
            while (m.find()) {
                line("expired " + m.group(1) + " " + done);
            }
        } else if (r < 74 && !claims.isEmpty()) {
            String id = claims.remove(rnd.nextInt(claims.size()));
            run("retract", "retract", id, "--actor", "alice", "--reason", "torture retraction");
        } else {
            read();
        }
    }

    private void replicaStep() throws IOException {
        int r = rnd.nextInt(100);
        if (r < 45) {
            long started = System.currentTimeMillis();
            if (run("sync", "sync", "origin", "--actor", "alice") == 0) {
                line("synced " + started + " " + System.currentTimeMillis());
            }
        } else if (r < 70) {
            claim();
        } else if (r < 85) {
            sealedNote();
        } else {
            read();
        }
    }

    private void claim() throws IOException {
        String id = nextId("c");
        if (run("claim", "claim", "--actor", "alice", "--id", id, "--subject", "entity " + rnd.nextInt(20), "--predicate",
                "p" + rnd.nextInt(4), "--object", "value " + rnd.nextInt(1000), "--source", "src") == 0) {
            line("ack " + id);
            claims.add(id);
        }
    }

    private void sealedNote() throws IOException {
        String id = nextId("k");
        String token = TortureBench.token(rnd);
        List<String> args = new ArrayList<>(List.of("assert", "--actor", "alice", "--kind", "note", "--id", id, "--body",
                "Private note " + token + " about entity " + rnd.nextInt(20)));
        if (rnd.nextInt(3) == 0) { // one in three expires a few seconds from now
            args.addAll(List.of("--retain-until", java.time.Instant.now().plusSeconds(2 + rnd.nextInt(6)).toString()));
        } else {
            args.add("--sensitive");
        }
        if (run("sealed", args.toArray(String[]::new)) == 0) {
            line("ack " + id);
            line("sealed " + id + " " + token);
            sealed.add(new String[] {id, token});
        }
    }

    private void read() throws IOException {
        long started = System.currentTimeMillis();
        int r = rnd.nextInt(3);
        String out;
        if (r == 0) {
            out = capture("search", "search", "--query", "private note entity " + rnd.nextInt(20), "--limit", "20");
        } else if (r == 1) {
            out = capture("brief", "brief", "--query", "entity " + rnd.nextInt(20), "--max-tokens", "600");
        } else {
            out = capture("dead-ends", "dead-ends", "entity " + rnd.nextInt(20));
        }
        Matcher m = TortureBench.TOKEN.matcher(out);
        while (m.find()) {
            line((role.equals("replica") ? "rseen " : "seen ") + m.group() + " " + started);
        }
    }

    private String nextId(String kind) {
        return prefix + "-" + kind + (n++);
    }

    private int run(String kind, String... args) throws IOException {
        return exec(kind, new StringWriter(), args);
    }

    private String capture(String kind, String... args) throws IOException {
        StringWriter out = new StringWriter();
        exec(kind, out, args);
        return out.toString();
    }

    private int exec(String kind, StringWriter out, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--store", store, "--home", home));
        StringWriter err = new StringWriter();
        int code = Main.run(all.toArray(String[]::new), new ByteArrayInputStream(new byte[0]), new PrintWriter(out),
                new PrintWriter(err));
        line("op " + kind + " " + code);
        if (code == 1 || code != 0 && READS.contains(kind) && !TortureBench.raced(err.toString())) {
            line("fail " + kind + " " + code + " " + err.toString().replace('\n', ' ').strip());
        }
        return code;
    }

    private void line(String s) throws IOException {
        log.write((s + "\n").getBytes(StandardCharsets.UTF_8));
        log.flush();
    }
}
