package dev.palimpsest.validtime;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Model-based, both time axes: random histories of claims and plain facts with random validity
 * (often starting long before they are written: late arrivals), successions and retractions, each
 * commit dated by a test clock; then, at every commit, {@code FactValidAt} of every fact at many
 * instants, {@code current --valid-at} and {@code search --valid-at} of every subject, {@code
 * contradictions --valid-at}, {@code search --valid-at} by text, and
 * {@code --as-of} around every commit's time, compared with a naive in-memory bitemporal model. The
 * seed comes from {@link Seeds}; {@code -Dpalimpsest.seed=N} replays a run.
 */
@ExtendWith(Seeds.class)
class BitemporalModelTest {
    private static final String[] SUBJECTS = {"acme", "beta"};
    private static final String[] OBJECTS = {"ada", "bob", "cy", "dee"};
    private static final Instant WORLD = Instant.parse("2020-01-01T00:00:00Z");
    private static final long DAY = 86_400;

    @TempDir
    Path dir;

    /** One fact of the model: a claim (subject set) or a note. */
    static final class M {
        String id;
        String s;
        String o;
        long from = Long.MIN_VALUE;
        long until = Long.MAX_VALUE;
        int written;
        int retracted = Integer.MAX_VALUE;
        final List<String> invalidates = new ArrayList<>();
        final List<String> invalidatedBy = new ArrayList<>();

        boolean liveAt(int k) {
            return written <= k && k < retracted;
        }
    }

    private final Map<String, M> facts = new TreeMap<>();
    private final List<CommitId> commits = new ArrayList<>();
    private final List<Instant> times = new ArrayList<>();

    /** The model's validity of {@code m} at commit {@code k}, succession applied; null when not live. */
    private long[] effective(M m, int k) {
        if (!m.liveAt(k)) {
            return null;
        }
        long until = m.until;
        for (M x : facts.values()) {
            if (x.liveAt(k) && x.invalidates.contains(m.id) && x.from > m.from && x.from < until) {
                until = x.from;
            }
        }
        for (String y : m.invalidatedBy) {
            M later = facts.get(y);
            if (later.liveAt(k) && later.from > m.from && later.from < until) {
                until = later.from;
            }
        }
        return new long[] {m.from, until};
    }

    private boolean validAt(M m, long t, int k) {
        long[] v = effective(m, k);
        return v != null && v[0] <= t && t < v[1];
    }

    @Test
    void agreesWithANaiveBitemporalModelAtEveryCommit(Seed seed) throws Exception {
        Random rnd = seed.random();
        TestClock clock = new TestClock(Instant.parse("2026-01-01T00:00:00Z"));
        try (Store s = Store.initializer(dir.resolve("store.git")).home(new KeyHome(dir.resolve("home"))).actor(ALICE)
                .options(StoreOptions.defaults().withFsync(false).withClock(clock)).create()) {
            commits.add(s.head());
            times.add(clock.instant());
            clock.advance(Duration.ofHours(1));
            var t0 = s.begin(ALICE);
            t0.assertFact(FactSpec.of(Kind.SOURCE, "The registry of officers.").id(FactId.of("doc")));
            commits.add(t0.commit().id());
            times.add(clock.instant());
            int steps = 30 + rnd.nextInt(15);
            for (int i = 0; i < steps; i++) {
                clock.advance(Duration.ofMinutes(1 + rnd.nextInt(3000)));
                int k = commits.size();
                List<M> live = facts.values().stream().filter(m -> m.liveAt(k - 1)).toList();
                int op = rnd.nextInt(10);
                if (op < 2 && !live.isEmpty()) {
                    M m = live.get(rnd.nextInt(live.size()));
                    commits.add(s.begin(ALICE).retract(FactId.of(m.id), "wrong").commit().id());
                    m.retracted = k;
                } else if (op < 4) {
                    M m = fresh("n" + k, null, null, rnd, k);
                    FactSpec f = FactSpec.of(Kind.CLAIM, "note " + k).id(FactId.of(m.id));
                    f = m.from == Long.MIN_VALUE ? f : f.validFrom(Instant.ofEpochSecond(m.from));
                    f = m.until == Long.MAX_VALUE ? f : f.validUntil(Instant.ofEpochSecond(m.until));
                    var t = s.begin(ALICE);
                    t.assertFact(f);
                    commits.add(t.commit().id());
                } else {
                    M m = fresh("c" + k, SUBJECTS[rnd.nextInt(SUBJECTS.length)], OBJECTS[rnd.nextInt(OBJECTS.length)],
                            rnd, k);
                    successions(m, k - 1);
                    ClaimSpec c = ClaimSpec.of(m.s, "ceo", m.o, FactId.of("doc")).id(FactId.of(m.id));
                    c = m.from == Long.MIN_VALUE ? c : c.validFrom(Instant.ofEpochSecond(m.from));
                    c = m.until == Long.MAX_VALUE ? c : c.validUntil(Instant.ofEpochSecond(m.until));
                    commits.add(s.claims().claim(ALICE, c).commit());
                }
                times.add(clock.instant());
            }
            for (int k = 0; k < commits.size(); k++) {
                check(s, k, rnd);
            }
        }
        try (Auditor a = Auditor.open(dir.resolve("store.git"))) {
            assertThat(a.audit(dev.palimpsest.model.AuditProgress.none()).violations()).isEmpty();
        }
    }

    /** A new fact written at commit {@code k}: open, or from a random day (often long past), maybe until a later one. */
    private M fresh(String id, String subject, String object, Random rnd, int k) {
        M m = new M();
        m.id = id;
        m.s = subject;
        m.o = object;
        m.written = k;
        if (rnd.nextInt(5) > 0) {
            m.from = WORLD.getEpochSecond() + DAY * rnd.nextInt(2000);
        }
        if (rnd.nextInt(3) == 0) {
            long base = m.from == Long.MIN_VALUE ? WORLD.getEpochSecond() : m.from;
            m.until = base + DAY * (1 + rnd.nextInt(800));
        }
        facts.put(id, m);
        return m;
    }

    /** The succession refs the writer records for claim {@code m} at the tip {@code head}, as the spec says. */
    private void successions(M m, int head) {
        if (m.from == Long.MIN_VALUE) {
            return;
        }
        for (M c : facts.values()) {
            if (c == m || c.s == null || !c.s.equals(m.s) || c.o.equals(m.o)) {
                continue;
            }
            long[] v = effective(c, head);
            if (v == null) {
                continue;
            }
            if (v[0] < m.from && m.from < v[1]) {
                m.invalidates.add(c.id);
            } else if (m.from < v[0] && v[0] < m.until) {
                m.invalidatedBy.add(c.id);
            }
        }
    }

    private void check(Store s, int k, Random rnd) throws Exception {
        CommitId c = commits.get(k);
        String at = "at commit " + k;
        assertThat(s.commitAsOf(times.get(k))).as("as of " + at).contains(c);
        assertThat(s.commitAsOf(times.get(k).plusSeconds(59))).as("as of a minute after " + at).contains(c);
        if (k > 0) {
            assertThat(s.commitAsOf(times.get(k).minusSeconds(1))).as("as of just before " + at)
                    .contains(commits.get(k - 1));
        } else {
            assertThat(s.commitAsOf(times.get(0).minusSeconds(1))).isEmpty();
        }
        List<Long> instants = new ArrayList<>();
        for (M m : facts.values()) {
            for (long b : new long[] {m.from, m.until}) {
                if (b != Long.MIN_VALUE && b != Long.MAX_VALUE) {
                    instants.add(b);
                    instants.add(b - 1);
                }
            }
        }
        for (int i = 0; i < 6; i++) {
            instants.add(WORLD.getEpochSecond() - DAY * 400 + (long) (rnd.nextDouble() * DAY * 3600));
        }
        for (M m : facts.values()) {
            FactId id = FactId.of(m.id);
            if (m.written > k) {
                assertThatThrownBy(() -> s.factValidAt(id, WORLD, c)).as(m.id + " before it was written, " + at)
                        .isInstanceOf(NotFoundException.class);
                continue;
            }
            for (long t : instants) {
                assertThat(s.factValidAt(id, Instant.ofEpochSecond(t), c))
                        .as("FactValidAt(%s, %s) %s", m.id, Instant.ofEpochSecond(t), at).isEqualTo(validAt(m, t, k));
            }
        }
        for (int i = 0; i < 4; i++) {
            long t = instants.get(rnd.nextInt(instants.size()));
            var q = s.claims().at(c).validAt(Instant.ofEpochSecond(t));
            Set<String> groups = new TreeSet<>();
            for (String subject : SUBJECTS) {
                Set<String> expected = facts.values().stream().filter(m -> subject.equals(m.s) && validAt(m, t, k))
                        .map(m -> m.id).collect(Collectors.toCollection(TreeSet::new));
                assertThat(q.current(subject)).extracting(v -> v.id().value()).as("current %s --valid-at %s %s",
                        subject, Instant.ofEpochSecond(t), at).containsExactlyInAnyOrderElementsOf(expected);
                SearchQuery named = SearchQuery.builder().entity(subject).hops(0).limit(SearchQuery.MAX_LIMIT).at(c)
                        .validAt(Instant.ofEpochSecond(t)).build();
                assertThat(s.recall().search(named)).extracting(h -> h.id().value()).filteredOn(id -> id.startsWith("c"))
                        .as("search --entity %s --valid-at %s %s", subject, Instant.ofEpochSecond(t), at)
                        .containsExactlyInAnyOrderElementsOf(expected);
                long objects = facts.values().stream().filter(m -> expected.contains(m.id)).map(m -> m.o).distinct()
                        .count();
                if (objects > 1) {
                    groups.add(subject + "=" + expected);
                }
            }
            Set<String> found = new TreeSet<>();
            for (Contradiction g : q.contradictions()) {
                found.add(g.subject() + "=" + g.claims().stream().map(v -> v.id().value())
                        .collect(Collectors.toCollection(TreeSet::new)));
            }
            assertThat(found).as("contradictions --valid-at %s %s", Instant.ofEpochSecond(t), at).isEqualTo(groups);
            Set<String> notes = facts.values().stream().filter(m -> m.s == null && validAt(m, t, k)).map(m -> m.id)
                    .collect(Collectors.toCollection(TreeSet::new));
            SearchQuery text = SearchQuery.builder("note").hops(0).limit(SearchQuery.MAX_LIMIT).at(c)
                    .validAt(Instant.ofEpochSecond(t)).build();
            assertThat(s.recall().search(text)).extracting(h -> h.id().value()).filteredOn(id -> id.startsWith("n"))
                    .as("search note --valid-at %s %s", Instant.ofEpochSecond(t), at)
                    .containsExactlyInAnyOrderElementsOf(notes);
        }
    }
}
