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
    /** Per thread id: its name and the most CPU time seen for it (threads end before the pull does). */
    private final Map<Long, Object[]> threads = new java.util.concurrent.ConcurrentHashMap<>();
    private final long self = Thread.currentThread().getId();
    private volatile boolean sampling = true;
    private final Thread sampler = new Thread(this::sample, "bench-cpu-sampler");

    /** Starts the clock: the phase before the first task is called "start". */
    PullPhases() {
        for (long id : THREADS.getAllThreadIds()) {
            threads.put(id, new Object[] {"(before)", -THREADS.getThreadCpuTime(id)});
        }
        sampler.setDaemon(true);
        sampler.start();
        mark("start");
    }

    private void sample() {
        while (sampling) {
            record();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Reads each live thread's CPU time (no safepoint: threads are listed from their group). */
    private void record() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] live = new Thread[root.activeCount() * 2 + 8];
        int n = root.enumerate(live, true);
        for (int i = 0; i < n; i++) {
            Thread t = live[i];
            if (t == sampler) {
                continue;
            }
            long cpu = THREADS.getThreadCpuTime(t.getId());
            String name = t.getName();
            threads.compute(t.getId(), (k, v) -> {
                if (v == null) {
                    return new Object[] {name, cpu};
                }
                if ("(before)".equals(v[0])) {
                    return v; // a thread that ran before the pull: not counted
                }
                return new Object[] {v[0], Math.max((Long) v[1], cpu)};
            });
        }
    }

    /**
     * CPU seconds of the threads that ran during the pull, grouped by name with digits dropped
     * (the calling thread is "caller"); sampled every 20 ms, so a thread's last few milliseconds
     * before it ends may be missed. Call after {@link #end}.
     */
    Map<String, Double> threadCpu() {
        Map<String, Double> out = new java.util.TreeMap<>();
        threads.forEach((id, v) -> {
            if (!"(before)".equals(v[0])) {
                String name = ((String) v[0]).replaceAll("-?[0-9]+$", "");
                out.merge(name, (Long) v[1] / 1e9, Double::sum);
            }
        });
        return out;
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
        sampling = false;
        sampler.interrupt();
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        record();
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
