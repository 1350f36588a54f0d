package dev.palimpsest.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shell blocks of a markdown document, run as a doctest.
 *
 * <p>Conventions (docs/testing.md, "The README runs as written"):
 * <ul>
 *   <li>Every fenced block whose info string is exactly {@code sh} runs, in document order, in ONE
 *       bash session ({@code set -euo pipefail}): variables, {@code cd} and traps carry over from
 *       block to block, and any failing command fails the document, naming the block.</li>
 *   <li>A block opened with {@code ```sh no-run} is shown and never run.</li>
 *   <li>A {@code ```text} block right after a running {@code sh} block (only blank lines between)
 *       is that block's expected standard output. Lines compare exactly (trailing spaces and
 *       leading or trailing blank lines aside); {@code …} in a line matches any characters, and a
 *       line that is only {@code …} matches any number of lines, none included. Standard error is
 *       never compared. A block without a {@code text} block may print anything.</li>
 * </ul>
 */
final class ShellDoc {
    static final String ELLIPSIS = "…";
    private static final Pattern FENCE = Pattern.compile("^```(.*)$");
    private static final String MARK = "\u001epalimpsest-doctest ";

    /** One shell block: its 1-based line in the document, its code, whether it runs, its expected output. */
    record Block(int line, String code, boolean runs, String expected) {
    }

    /** What a run printed, block by block, and how it ended. */
    record Run(List<String> outputs, int blocksStarted, int exitCode, boolean timedOut, String stderr,
            Duration took, List<Duration> blockTimes) {
    }

    private ShellDoc() {
    }

    static List<Block> parse(String markdown) {
        List<String> lines = markdown.lines().toList();
        List<Block> blocks = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                i++;
                continue;
            }
            String info = open.group(1).strip();
            int start = i;
            int close = closing(lines, i);
            String code = String.join("\n", lines.subList(start + 1, close));
            i = close + 1;
            if (!info.equals("sh") && !info.equals("sh no-run")) {
                continue;
            }
            boolean runs = info.equals("sh");
            String expected = null;
            int next = i;
            while (next < lines.size() && lines.get(next).isBlank()) {
                next++;
            }
            if (runs && next < lines.size() && lines.get(next).strip().equals("```text")) {
                int end = closing(lines, next);
                expected = String.join("\n", lines.subList(next + 1, end));
                i = end + 1;
            }
            blocks.add(new Block(start + 1, code, runs, expected));
        }
        return blocks;
    }

    private static int closing(List<String> lines, int open) {
        for (int j = open + 1; j < lines.size(); j++) {
            if (lines.get(j).strip().equals("```")) {
                return j;
            }
        }
        throw new IllegalArgumentException("the block opened at line " + (open + 1) + " is never closed");
    }

    /** The script that runs the running blocks in order, each announced on stdout by a marker line. */
    static String script(List<Block> blocks) {
        StringBuilder s = new StringBuilder("set -euo pipefail\n");
        int n = 0;
        for (Block b : blocks) {
            if (!b.runs()) {
                continue;
            }
            s.append("printf '\\n\\036palimpsest-doctest %s %s\\n' ").append(n++).append(" \"$EPOCHREALTIME\"\n");
            s.append(b.code()).append('\n');
        }
        s.append("printf '\\n\\036palimpsest-doctest end %s\\n' \"$EPOCHREALTIME\"\n");
        return s.toString();
    }

    /**
     * Runs the blocks with bash in {@code dir}, with exactly {@code env} as the environment; the
     * processes a block left running (and did not stop) are killed at the end.
     */
    static Run run(List<Block> blocks, Path dir, Map<String, String> env, Duration timeout)
            throws IOException, InterruptedException {
        Path script = Files.writeString(dir.resolve(".doctest.sh"), script(blocks), StandardCharsets.UTF_8);
        Path out = dir.resolve(".doctest.out");
        Path err = dir.resolve(".doctest.err");
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString()).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        long t0 = System.nanoTime();
        Process p = pb.start();
        // Background processes orphaned when bash exits are no longer its descendants: remember them as it runs.
        Set<ProcessHandle> seen = new LinkedHashSet<>();
        long deadline = t0 + timeout.toNanos();
        boolean done = false;
        while (!done && System.nanoTime() < deadline) {
            p.descendants().forEach(seen::add);
            done = p.waitFor(100, TimeUnit.MILLISECONDS);
        }
        if (!done) {
            p.descendants().forEach(seen::add);
            p.destroyForcibly();
            p.waitFor();
        }
        seen.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String[] parts = stdout.split("\n" + MARK, -1);
        List<String> outputs = new ArrayList<>();
        List<Double> starts = new ArrayList<>();
        boolean ended = false;
        for (int k = 1; k < parts.length; k++) {
            String part = parts[k];
            int nl = part.indexOf('\n');
            String[] tag = (nl < 0 ? part : part.substring(0, nl)).split(" ");
            starts.add(tag.length > 1 ? Double.parseDouble(tag[1].replace(',', '.')) : Double.NaN);
            if (tag[0].equals("end")) {
                ended = true;
                break;
            }
            outputs.add(nl < 0 ? "" : part.substring(nl + 1));
        }
        List<Duration> times = new ArrayList<>();
        for (int k = 0; k + 1 < starts.size(); k++) {
            times.add(Duration.ofMillis(Math.round((starts.get(k + 1) - starts.get(k)) * 1000)));
        }
        int code = done ? p.exitValue() : -1;
        if (done && code == 0 && !ended) {
            code = -2;   // a block ended the script early (exit 0): the blocks after it never ran
        }
        return new Run(outputs, outputs.size(), code, !done, Files.readString(err, StandardCharsets.UTF_8), took, times);
    }

    /** Fails with the first block that failed or printed something other than its {@code text} block. */
    static void check(String document, List<Block> blocks, Run run) {
        List<Block> running = blocks.stream().filter(Block::runs).toList();
        if (run.timedOut() || run.exitCode() != 0) {
            int k = Math.max(0, run.blocksStarted() - 1);
            Block b = running.isEmpty() ? null : running.get(Math.min(k, running.size() - 1));
            String why = run.timedOut() ? "timed out after " + run.took().toSeconds() + " s"
                    : run.exitCode() == -2 ? "ended the session early (exit 0)"
                    : "failed (exit " + run.exitCode() + ")";
            throw new AssertionError(document + ": the sh block at line " + (b == null ? "?" : b.line()) + " " + why
                    + "\n--- the block:\n" + (b == null ? "" : b.code())
                    + "\n--- its standard output:\n" + (run.outputs().isEmpty() ? "" : run.outputs().get(k))
                    + "\n--- standard error (last 40 lines):\n" + tail(run.stderr(), 40));
        }
        StringBuilder mismatches = new StringBuilder();
        int count = 0;
        for (int k = 0; k < running.size(); k++) {
            Block b = running.get(k);
            if (b.expected() != null && !matches(b.expected(), run.outputs().get(k))) {
                count++;
                mismatches.append("\n=== the sh block at line ").append(b.line())
                        .append(" printed something else than the text block after it")
                        .append("\n--- the block:\n").append(b.code())
                        .append("\n--- expected (… matches anything):\n").append(b.expected())
                        .append("\n--- printed:\n").append(String.join("\n", trimmed(run.outputs().get(k))));
            }
        }
        if (count > 0) {
            throw new AssertionError(document + ": " + count + " block(s) printed something else" + mismatches);
        }
    }

    static boolean matches(String expected, String actual) {
        List<String> want = trimmed(expected);
        List<String> got = trimmed(actual);
        return matchFrom(want, 0, got, 0, new Boolean[want.size() + 1][got.size() + 1]);
    }

    private static boolean matchFrom(List<String> want, int w, List<String> got, int g, Boolean[][] memo) {
        if (memo[w][g] != null) {
            return memo[w][g];
        }
        boolean r;
        if (w == want.size()) {
            r = g == got.size();
        } else if (want.get(w).equals(ELLIPSIS)) {
            r = matchFrom(want, w + 1, got, g, memo) || (g < got.size() && matchFrom(want, w, got, g + 1, memo));
        } else {
            r = g < got.size() && lineMatches(want.get(w), got.get(g)) && matchFrom(want, w + 1, got, g + 1, memo);
        }
        memo[w][g] = r;
        return r;
    }

    static boolean lineMatches(String pattern, String line) {
        StringBuilder re = new StringBuilder();
        String[] literals = pattern.split(ELLIPSIS, -1);
        for (int i = 0; i < literals.length; i++) {
            re.append(i == 0 ? "" : ".*").append(Pattern.quote(literals[i]));
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL).matcher(line).matches();
    }

    private static List<String> trimmed(String text) {
        List<String> lines = new ArrayList<>(text.lines().map(String::stripTrailing).toList());
        while (!lines.isEmpty() && lines.get(0).isEmpty()) {
            lines.remove(0);
        }
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    private static String tail(String text, int n) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }
}
