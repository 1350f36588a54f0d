package dev.palimpsest.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ProgressMonitor;
import org.junit.jupiter.api.Test;

/** JGit's progress, as the transport hands it on: a task's running total of units done. */
class TransportMonitorTest {
    private final List<String> seen = new ArrayList<>();
    private final Transport.Monitor monitor = new Transport.Monitor((task, done, total) -> seen.add(task + " " + done + "/" + total));

    @Test
    void aTaskIsReportedWhenItBeginsAndThenWithTheUnitsDoneSoFar() {
        monitor.beginTask("Receiving objects", 10);
        monitor.update(3);
        monitor.update(4);
        assertThat(seen).containsExactly("Receiving objects 0/10", "Receiving objects 3/10", "Receiving objects 7/10");
    }

    @Test
    void anUnknownTotalIsReportedAsZeroAndANewTaskCountsFromZero() {
        monitor.beginTask("Counting", 5);
        monitor.update(5);
        monitor.beginTask("Copying objects", ProgressMonitor.UNKNOWN);
        monitor.update(1000);
        assertThat(seen).containsExactly("Counting 0/5", "Counting 5/5", "Copying objects 0/0", "Copying objects 1000/0");
    }
}
