package dev.palimpsest.sync;

import static dev.palimpsest.sync.Replicas.ALICE;
import static dev.palimpsest.sync.Replicas.BOB;
import static dev.palimpsest.sync.Replicas.CAROL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.Arrival;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.TimelineEntry;
import dev.palimpsest.model.TransferProgress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pull's (or a hub's adoption of a push's) move of main is recorded in main's local reflog, which
 * git reads as any reflog, and the timeline shows it as the arrival of the commit main moved to;
 * ordinary writes, the commits main passed on the way and a clone record none.
 */
class PullArrivalTest {
    private static final TransferProgress NONE = TransferProgress.none();

    @TempDir
    Path dir;

    private Replicas rs;

    @BeforeEach
    void hub() throws Exception {
        rs = Replicas.create(dir);
    }

    @Test
    void aFastForwardPullMarksTheCommitMainMovedToAndGitReadsTheReflog() throws Exception {
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        assertThat(b.resolve("logs/refs/heads/main")).as("a clone records no arrival").doesNotExist();
        try (Store s = rs.open(a)) {
            ReplicationTest.assertFact(s, BOB, "x", "Written on replica a.");
            ReplicationTest.assertFact(s, BOB, "y", "Written on replica a, later.");
            s.replication().push("origin", NONE);
        }
        try (Store s = rs.open(b)) {
            CommitId before = s.head();
            Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            assertThat(s.replication().pull("origin", NONE)).isInstanceOf(PullResult.FastForward.class);
            Instant end = Instant.now();
            List<TimelineEntry> t = s.timeline(s.head(), 0, 0);
            Arrival arrival = t.get(0).arrival().orElseThrow();
            assertThat(arrival.via()).isEqualTo(Arrival.Via.PULL);
            assertThat(arrival.from()).isEqualTo("origin");
            assertThat(arrival.mode()).isEqualTo(Arrival.Mode.FAST_FORWARD);
            assertThat(arrival.at()).isBetween(start, end);
            assertThat(s.timelineEntry(s.head()).arrival()).contains(arrival);
            assertThat(t.subList(1, t.size())).as("the commit main passed on the way and the older ones")
                    .extracting(TimelineEntry::arrival).containsOnly(Optional.empty());

            ReplicationTest.assertFact(s, CAROL, "z", "Written on replica b after the pull.");
            assertThat(s.timelineEntry(s.head()).arrival()).as("an ordinary write records no arrival").isEmpty();
            assertThat(Files.readAllLines(b.resolve("logs/refs/heads/main"))).hasSize(1).first().asString()
                    .startsWith(before.hex() + " " + t.get(0).commit().commit().hex() + " palimpsest <> ")
                    .endsWith("\tpalimpsest pull origin: fast-forward");
        }
        Replicas.Result git = Replicas.git(b, "reflog", "show", "--no-abbrev", "main");
        assertThat(git.code()).as(git.output()).isZero();
        assertThat(git.output().lines().filter(l -> !l.startsWith("warning:")))
                .containsExactly(Replicas.head(rs.hub).name() + " main@{0}: palimpsest pull origin: fast-forward");
        assertThat(Replicas.git(b, "fsck", "--strict").code()).isZero();
    }

    @Test
    void aMergingPullMarksItsMergeCommit() throws Exception {
        Path a = rs.cloneHub("a");
        Path b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            ReplicationTest.assertFact(s, BOB, "x", "Written on replica a.");
            s.replication().push("origin", NONE);
        }
        try (Store s = rs.open(b)) {
            ReplicationTest.assertFact(s, CAROL, "y", "Written on replica b.");
            PullResult.Merged m = (PullResult.Merged) s.replication().pullAs("origin", CAROL, NONE);
            TimelineEntry merge = s.timelineEntry(m.head());
            assertThat(merge.isMerge()).isTrue();
            assertThat(merge.arrival()).hasValueSatisfying(arrival -> {
                assertThat(arrival.via()).isEqualTo(Arrival.Via.PULL);
                assertThat(arrival.from()).isEqualTo("origin");
                assertThat(arrival.mode()).isEqualTo(Arrival.Mode.MERGE);
            });
            assertThat(s.timelineEntry(m.theirs()).arrival()).as("the pulled commit itself: main never pointed at it")
                    .isEmpty();
        }
        Replicas.Result git = Replicas.git(b, "reflog", "show", "main");
        assertThat(git.code()).as(git.output()).isZero();
        assertThat(git.output()).contains("main@{0}: palimpsest pull origin: merge");
    }

    @Test
    void aHubAdoptingAPushRecordsAMergeRequestFromThePusher() throws Exception {
        Path a = rs.cloneHub("a");
        CommitId pushed;
        try (Store s = rs.open(a)) {
            ReplicationTest.assertFact(s, BOB, "x", "Written on replica a.");
            pushed = s.head();
        }
        Replicas.Result copy = Replicas.git(a, "push", rs.hub.toString(), "main:refs/heads/incoming");
        assertThat(copy.code()).as(copy.output()).isZero();
        try (Store hub = rs.open(rs.hub)) {
            ReplicationTest.assertFact(hub, ALICE, "h", "Written on the hub meanwhile.");
            PullResult r = hub.replication().adopt(pushed, BOB, NONE);
            assertThat(r).isInstanceOf(PullResult.Merged.class);
            assertThat(hub.timelineEntry(hub.head()).arrival()).hasValueSatisfying(arrival -> {
                assertThat(arrival.via()).isEqualTo(Arrival.Via.MERGE_REQUEST);
                assertThat(arrival.from()).isEqualTo("bob");
                assertThat(arrival.mode()).isEqualTo(Arrival.Mode.MERGE);
            });
        }
        assertThat(Replicas.git(rs.hub, "reflog", "show", "main").output())
                .contains("main@{0}: palimpsest merge request from bob: merge");
    }
}
