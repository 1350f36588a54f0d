package dev.palimpsest.validtime;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.cli.Run;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two axes apart: a fact learnt today that has been true since last month is invisible as the
 * store stood yesterday (transaction time, --as-of) and valid last month when asked at today's
 * commit (valid time, --valid-at).
 */
class LateArrivalTest {
    private static final Instant LAST_MONTH = Instant.parse("2026-05-11T00:00:00Z");
    private static final Instant YESTERDAY = Instant.parse("2026-06-10T09:00:00Z");
    private static final Instant TODAY = Instant.parse("2026-06-11T09:00:00Z");

    @TempDir
    Path dir;

    private final TestClock clock = new TestClock(Instant.parse("2026-06-01T09:00:00Z"));

    private Store init() throws Exception {
        return Store.initializer(dir.resolve("store.git")).home(new KeyHome(dir.resolve("home"))).actor(ALICE)
                .options(StoreOptions.defaults().withFsync(false).withClock(clock)).create();
    }

    private Run cmd(String... args) {
        return Run.inStore(dir.resolve("store.git").toString(), dir.resolve("home").toString(), args);
    }

    @Test
    void aFactLearntTodayIsInvisibleAsOfYesterdayAndValidLastMonthAtTodaysCommit() throws Exception {
        FactId f = FactId.of("outage");
        CommitId yesterday;
        CommitId today;
        try (Store s = init()) {
            clock.set(YESTERDAY);
            var t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, "The incident log.").id(FactId.of("log")));
            yesterday = t.commit().id();
            clock.set(TODAY);
            t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.CLAIM, "The backup job has been failing.").id(f).validFrom(LAST_MONTH));
            today = t.commit().id();

            assertThat(s.commitAsOf(YESTERDAY.plusSeconds(3600))).contains(yesterday);
            assertThat(s.commitAsOf(TODAY)).contains(today);
            assertThat(s.commitAsOf(Instant.parse("2026-01-01T00:00:00Z"))).isEmpty();
            CommitId asOfYesterday = s.commitAsOf(YESTERDAY.plusSeconds(3600)).orElseThrow();
            assertThatThrownBy(() -> s.factLiveAtCommit(f, asOfYesterday)).isInstanceOf(NotFoundException.class);
            assertThatThrownBy(() -> s.factValidAt(f, LAST_MONTH, asOfYesterday)).isInstanceOf(NotFoundException.class);

            assertThat(s.factValidAt(f, LAST_MONTH.plusSeconds(86400), today)).isTrue();
            assertThat(s.factValidAt(f, LAST_MONTH, today)).as("from is inclusive").isTrue();
            assertThat(s.factValidAt(f, LAST_MONTH.minusSeconds(1), today)).isFalse();
            assertThat(s.factValidAt(f, TODAY)).isTrue();
            assertThat(s.validity(f, today).orElseThrow().start()).contains(LAST_MONTH);
        }
        try (Auditor a = Auditor.open(dir.resolve("store.git"))) {
            assertThat(a.audit(dev.palimpsest.model.AuditProgress.none()).violations()).isEmpty();
        }

        assertThat(cmd("valid", "outage", "--valid-at", "2026-05-20").out().trim()).isEqualTo("true");
        assertThat(cmd("valid", "outage", "--valid-at", "2026-05-01").out().trim()).isEqualTo("false");
        Run asOf = cmd("show", "outage", "--as-of", "2026-06-10T12:00:00Z");
        assertThat(asOf.code()).as(asOf.err()).isEqualTo(4);
        assertThat(cmd("show", "log", "--as-of", "2026-06-10T12:00:00Z").code()).isZero();
        assertThat(cmd("valid", "outage", "--valid-at", "2026-05-20", "--as-of", "2026-06-10T12:00:00Z").code())
                .isEqualTo(4);
        assertThat(cmd("valid", "outage", "--valid-at", "2026-05-20", "--as-of", "2026-06-11").code())
                .as("the start of the 11th is before today's commit").isEqualTo(4);
        assertThat(cmd("live", "outage", "--as-of", "2026-06-12").out().trim()).isEqualTo("true");
        Run both = cmd("live", "outage", "--at", "main", "--as-of", "2026-06-12");
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("--at and --as-of");
        Run early = cmd("live", "outage", "--as-of", "2020-01-01");
        assertThat(early.code()).isEqualTo(4);
        assertThat(early.err()).contains("starts later");
        assertThat(cmd("valid", "outage", "--valid-at", "soon").code()).isEqualTo(5);
    }
}
