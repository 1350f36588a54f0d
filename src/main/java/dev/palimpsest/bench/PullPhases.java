package dev.palimpsest.bench;

import dev.palimpsest.model.TransferProgress;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits one pull into phases at the progress tasks it reports (the fetch's pack tasks, the audit,
 * the adoption): a phase runs from a task's first update to the next task's first update, or to
 * {@link #end}. Records wall time, the calling thread's CPU time and the process's CPU time of
 * each. Not thread-safe: the pull reports progress from its calling thread.
 */
final class PullPhases implements TransferProgress {
    /** One phase: its task, wall seconds, calling thread's CPU seconds, process CPU seconds. */
    record Phase(String task, double wall, double threadCpu, double processCpu) {}

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private final List<String> tasks = new ArrayList<>();
    private final List<long[]> marks = new ArrayList<>();

    /** Starts the clock: the phase before the first task is called "start". */
    PullPhases() {
        mark("start");
    }

    @Override
    public void update(String task, int done, int total) {
        if (!task.equals(tasks.get(tasks.size() - 1))) {
            mark(task);
        }
    }

    /** Ends the last phase; returns the phases in order (a task that recurs is summed). */
    List<Phase> end() {
        mark("");
        Map<String, double[]> sums = new LinkedHashMap<>();
        for (int i = 0; i + 1 < marks.size(); i++) {
            long[] a = marks.get(i);
            long[] b = marks.get(i + 1);
            double[] s = sums.computeIfAbsent(tasks.get(i), k -> new double[3]);
            s[0] += (b[0] - a[0]) / 1e9;
            s[1] += (b[1] - a[1]) / 1e9;
            s[2] += (b[2] - a[2]) / 1e9;
        }
        List<Phase> out = new ArrayList<>();
        sums.forEach((k, v) -> out.add(new Phase(k, v[0], v[1], v[2])));
        return out;
    }

    private void mark(String task) {
        tasks.add(task);
        marks.add(new long[] {System.nanoTime(), THREADS.getCurrentThreadCpuTime(), processCpuNanos()});
    }

    /** CPU time of the whole process (every thread: the audit's workers, the JIT, the collector). */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
