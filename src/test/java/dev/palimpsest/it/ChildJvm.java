package dev.palimpsest.it;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child JVM running a test main class on this JVM's class path; its stdout lines and its stderr
 * are collected in the background.
 */
final class ChildJvm {
    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final Thread outPump;
    private final Thread errPump;

    private ChildJvm(Process process) {
        this.process = process;
        this.outPump = new Thread(this::pumpLines, "child-stdout-" + process.pid());
        this.errPump = new Thread(this::pumpErr, "child-stderr-" + process.pid());
        outPump.setDaemon(true);
        errPump.setDaemon(true);
        outPump.start();
        errPump.start();
    }

    static ChildJvm start(Class<?> main, String... args) {
        return start(command(main, args));
    }

    /** Starts {@code cmd} (a child JVM's command line, or one that runs it). */
    static ChildJvm start(List<String> cmd) {
        try {
            return new ChildJvm(new ProcessBuilder(cmd).start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + cmd, e);
        }
    }

    /** The command line of a child JVM running {@code main} on this JVM's class path. */
    static List<String> command(Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("java.home") + "/bin/java");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-Xmx256m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }

    Process process() {
        return process;
    }

    /** Writes {@code line} and a newline to the child's stdin. */
    void send(String line) {
        try {
            var in = process.getOutputStream();
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to child " + process.pid(), e);
        }
    }

    /** Closes the child's stdin: it reads the end of its input. */
    void closeInput() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the stdin of child " + process.pid(), e);
        }
    }

    /** Every complete line the child printed so far. */
    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    String stderr() {
        synchronized (stderr) {
            return stderr.toString(StandardCharsets.UTF_8);
        }
    }

    /** Waits until the child printed {@code line}; false when it exited or the time ran out first. */
    boolean awaitLine(String line, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        synchronized (lines) {
            while (!lines.contains(line)) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0 || (!process.isAlive() && !outPump.isAlive())) {
                    return lines.contains(line);
                }
                lines.wait(Math.min(left, 50));
            }
            return true;
        }
    }

    /**
     * The index of the first line from {@code from} on that {@code matches}, once printed; -1 when
     * the child exited or the time ran out first.
     */
    int awaitMatch(int from, Predicate<String> matches, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        synchronized (lines) {
            int next = from;
            while (true) {
                for (; next < lines.size(); next++) {
                    if (matches.test(lines.get(next))) {
                        return next;
                    }
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0 || (!process.isAlive() && !outPump.isAlive())) {
                    return -1;
                }
                lines.wait(Math.min(left, 50));
            }
        }
    }

    /** Waits until the child printed at least {@code count} lines; false when it exited or the time ran out first. */
    boolean awaitLines(int count, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        synchronized (lines) {
            while (lines.size() < count) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0 || (!process.isAlive() && !outPump.isAlive())) {
                    return lines.size() >= count;
                }
                lines.wait(Math.min(left, 50));
            }
            return true;
        }
    }

    /** Waits for the child to exit and for both streams to be drained; returns the exit code. */
    int waitFor(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("child " + process.pid() + " did not exit within " + timeoutSeconds
                    + " s; stderr:\n" + stderr());
        }
        outPump.join(10_000);
        errPump.join(10_000);
        return process.exitValue();
    }

    /** Sends SIGKILL and waits until the child is gone and its output drained. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        waitFor(30);
    }

    private void pumpLines() {
        try (BufferedReader r = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            StringBuilder cur = new StringBuilder();
            int c;
            while ((c = r.read()) >= 0) {
                if (c == '\n') {
                    synchronized (lines) {
                        lines.add(cur.toString());
                        lines.notifyAll();
                    }
                    cur.setLength(0);
                } else {
                    cur.append((char) c);
                }
            }
            // a partial last line (killed mid-print) is not a line: it was never acknowledged
        } catch (IOException e) {
            // the stream closes when the child is killed
        } finally {
            synchronized (lines) {
                lines.notifyAll();
            }
        }
    }

    private void pumpErr() {
        byte[] buf = new byte[8192];
        try (InputStream in = process.getErrorStream()) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                synchronized (stderr) {
                    stderr.write(buf, 0, n);
                }
            }
        } catch (IOException e) {
            // closed by a killed child
        }
    }
}
