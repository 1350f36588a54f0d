package dev.palimpsest.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs external programs (git, gpg) for the integration tests: environment overrides, optional
 * stdin, captured stdout/stderr and a timeout after which the process is killed.
 */
final class GitCli {
    static final long DEFAULT_TIMEOUT_SECONDS = 60;

    private GitCli() {}

    /** The outcome of one process run. */
    record Result(List<String> command, int exitCode, byte[] stdoutBytes, String stderr) {
        String stdout() {
            return new String(stdoutBytes, StandardCharsets.UTF_8);
        }

        List<String> stdoutLines() {
            String s = stdout();
            if (s.isEmpty()) {
                return List.of();
            }
            if (s.endsWith("\n")) {
                s = s.substring(0, s.length() - 1);
            }
            return List.of(s.split("\n", -1));
        }

        /** Throws unless the exit code is 0; the message carries the command and both streams. */
        Result ok() {
            if (exitCode != 0) {
                throw new AssertionError(describe());
            }
            return this;
        }

        String describe() {
            return "command " + command + " exited " + exitCode + "\n--- stdout ---\n" + stdout()
                    + "\n--- stderr ---\n" + stderr;
        }
    }

    /** Runs {@code command} with no stdin and the default timeout. */
    static Result run(Map<String, String> env, String... command) {
        return run(env, null, DEFAULT_TIMEOUT_SECONDS, List.of(command));
    }

    /** Runs {@code git --git-dir <gitDir> args...} in an environment isolated from user/system git config. */
    static Result git(Path gitDir, Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.add("--git-dir=" + gitDir.toAbsolutePath());
        cmd.addAll(Arrays.asList(args));
        return run(gitEnv(env), null, DEFAULT_TIMEOUT_SECONDS, cmd);
    }

    static Result git(Path gitDir, String... args) {
        return git(gitDir, Map.of(), args);
    }

    /** Environment that keeps the user's and the system's git configuration out of the test. */
    static Map<String, String> gitEnv(Map<String, String> extra) {
        Map<String, String> env = new java.util.HashMap<>();
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_CONFIG_GLOBAL", "/dev/null");
        env.put("LC_ALL", "C");
        env.put("TZ", "UTC");
        env.put("GIT_TERMINAL_PROMPT", "0");
        env.putAll(extra);
        return env;
    }

    /**
     * Runs {@code command}; {@code stdin} (may be null) is written to the process and closed.
     * Environment entries with a null value are removed.
     */
    static Result run(Map<String, String> env, byte[] stdin, long timeoutSeconds, List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command);
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getValue() == null) {
                pb.environment().remove(e.getKey());
            } else {
                pb.environment().put(e.getKey(), e.getValue());
            }
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread to = pump(p.getInputStream(), out);
        Thread te = pump(p.getErrorStream(), err);
        try {
            try (var in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin);
                }
            } catch (IOException e) {
                // the process may exit without reading its input; its exit code tells
            }
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("command " + command + " did not finish within " + timeoutSeconds + " s");
            }
            to.join(10_000);
            te.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new AssertionError("interrupted while running " + command, e);
        }
        synchronized (out) {
            synchronized (err) {
                return new Result(List.copyOf(command), p.exitValue(), out.toByteArray(),
                        err.toString(StandardCharsets.UTF_8));
            }
        }
    }

    private static Thread pump(InputStream in, ByteArrayOutputStream sink) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[65536];
            try (in) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    synchronized (sink) {
                        sink.write(buf, 0, n);
                    }
                }
            } catch (IOException e) {
                // stream closed by a killed process
            }
        }, "gitcli-pump");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
