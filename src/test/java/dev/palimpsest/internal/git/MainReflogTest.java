package dev.palimpsest.internal.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Arrival;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Main's reflog as the record of arrivals: palimpsest's own lines are read (the latest move to each
 * commit), git's are ignored, an append is seen on the next read, and a half-written line leaves what
 * was read before.
 */
class MainReflogTest {
    private static final ObjectId A = ObjectId.fromString("1111111111111111111111111111111111111111");
    private static final ObjectId B = ObjectId.fromString("2222222222222222222222222222222222222222");
    private static final Instant T1 = Instant.parse("2026-12-04T10:00:00Z");
    private static final Instant T2 = Instant.parse("2026-12-04T11:00:00Z");

    @TempDir
    Path dir;

    private Store store;
    private GitRepo repo;
    private MainReflog reflog;

    @BeforeEach
    void open() throws Exception {
        store = TestStores.initLexical(dir);
        repo = GitRepo.open(store.gitDir(), false);
        reflog = new MainReflog(repo);
    }

    @AfterEach
    void close() {
        repo.close();
        store.close();
    }

    @Test
    void noReflogIsNoArrival() {
        assertThat(reflog.arrivals()).isEmpty();
    }

    @Test
    void eachAppendedLineIsReadOnTheNextCallAndGitsOwnLinesAreIgnored() throws Exception {
        MainReflog.append(store.gitDir(), MainReflog.line(null, A, T1, MainReflog.pull("origin"), false), false);
        assertThat(reflog.arrivals()).containsExactly(
                Map.entry(A, new Arrival(Arrival.Via.PULL, "origin", Arrival.Mode.FAST_FORWARD, T1)));
        MainReflog.append(store.gitDir(), A.name() + " " + B.name() + " Ann <ann@x> 1764842400 +0000\tcommit: by hand\n",
                false);
        MainReflog.append(store.gitDir(), MainReflog.line(A, B, T2, MainReflog.mergeRequest(ActorName.of("bob")), true),
                false);
        assertThat(reflog.arrivals()).containsOnly(
                Map.entry(A, new Arrival(Arrival.Via.PULL, "origin", Arrival.Mode.FAST_FORWARD, T1)),
                Map.entry(B, new Arrival(Arrival.Via.MERGE_REQUEST, "bob", Arrival.Mode.MERGE, T2)));
        MainReflog.append(store.gitDir(), MainReflog.line(B, A, T2, MainReflog.pull("backup"), false), false);
        assertThat(reflog.arrivals().get(A)).as("the latest move to a commit")
                .isEqualTo(new Arrival(Arrival.Via.PULL, "backup", Arrival.Mode.FAST_FORWARD, T2));
    }

    @Test
    void aHalfWrittenLineLeavesWhatWasReadBefore() throws Exception {
        MainReflog.append(store.gitDir(), MainReflog.line(null, A, T1, MainReflog.pull("origin"), false), false);
        Map<ObjectId, Arrival> before = reflog.arrivals();
        Files.write(store.gitDir().resolve(MainReflog.PATH), "2222222".getBytes(StandardCharsets.US_ASCII),
                StandardOpenOption.APPEND);
        assertThat(reflog.arrivals()).isEqualTo(before).hasSize(1);
    }

    @Test
    void onlyPalimpsestsOwnWellFormedMessagesAreArrivals() {
        assertThat(MainReflog.parse("palimpsest pull origin: merge", T1))
                .isEqualTo(new Arrival(Arrival.Via.PULL, "origin", Arrival.Mode.MERGE, T1));
        assertThat(MainReflog.parse("pull origin: fast-forward", T1)).isNull();
        assertThat(MainReflog.parse("palimpsest pull origin: rebase", T1)).isNull();
        assertThat(MainReflog.parse("palimpsest merge request from Bob!: merge", T1)).isNull();
        assertThat(MainReflog.parse("palimpsest merge request from BOB: merge", T1)).as("not an actor name").isNull();
        assertThatThrownBy(() -> MainReflog.pull("../x")).isInstanceOf(IllegalArgumentException.class);
    }
}
