package dev.palimpsest.forget;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random writes (notes and claims, sealed, some with deadlines), citations with quotes,
 * retractions, forgets and expiries against a model of who cites whom: after every step the
 * derivation set of each forgotten fact holds every fact that transitively cites it and never
 * shrinks, and no read path (read at the tip and at every earlier commit, quotes copied elsewhere,
 * search and brief at every commit, history, claim questions) returns a forgotten fact's content; the audit stays clean.
 */
@ExtendWith(Seeds.class)
class ForgetModelTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dir;

    private static String token(int i) {
        return "tok" + i + "q";
    }

    @Test
    void derivationSetsNeverShrinkAndForgottenContentIsNeverReadable(Seed seed) throws Exception {
        Random rnd = seed.random();
        Map<FactId, Set<FactId>> citedBy = new HashMap<>();
        Set<FactId> written = new TreeSet<>();
        Set<FactId> live = new TreeSet<>();
        Set<FactId> forgotten = new TreeSet<>();
        Set<FactId> claims = new HashSet<>();
        Map<FactId, Instant> deadlines = new HashMap<>();
        Map<FactId, Set<FactId>> lastDerivations = new HashMap<>();
        List<CommitId> commits = new ArrayList<>();
        Instant clock = T0;
        int next = 0;
        try (Store s = TestStores.init(dir)) {
            commits.add(s.head());
            for (int step = 0; step < 30; step++) {
                int op = rnd.nextInt(10);
                List<FactId> citable = written.stream().filter(f -> !forgotten.contains(f)).toList();
                if (op < 5 || citable.isEmpty()) {
                    FactId id = FactId.of("f" + next);
                    String body = "marker " + token(next) + " alpha beta gamma";
                    next++;
                    List<RefSpec> refs = new ArrayList<>();
                    Set<FactId> targets = new HashSet<>();
                    for (int k = 0; k < 2 && !citable.isEmpty(); k++) {
                        FactId t = citable.get(rnd.nextInt(citable.size()));
                        if (targets.add(t)) {
                            int ti = Integer.parseInt(t.value().substring(1));
                            RefSpec r = RefSpec.cites(t);
                            refs.add(rnd.nextBoolean() && !claims.contains(t) ? r.withQuote(token(ti) + " alpha beta") : r);
                        }
                    }
                    Instant deadline = rnd.nextInt(3) == 0 ? clock.plusSeconds(3600L * (1 + rnd.nextInt(48))) : null;
                    if (!refs.isEmpty() && rnd.nextInt(3) == 0) {
                        List<RefSpec> src = List.of(new RefSpec(refs.get(0).target(), null, RefRole.SOURCE, null));
                        ClaimSpec c = new ClaimSpec(id, "ent" + id.value(), "has", token(next - 1) + " value", src, null,
                                null, null).asSensitive();
                        c = deadline == null ? c : c.retainedUntil(deadline);
                        s.claims().claim(ALICE, c);
                        claims.add(id);
                        targets.clear();
                        targets.add(refs.get(0).target());
                    } else {
                        FactSpec spec = FactSpec.of(Kind.of("note"), body).id(id).refs(refs).asSensitive();
                        var tx = s.begin(ALICE);
                        tx.assertFact(deadline == null ? spec : spec.retainedUntil(deadline));
                        tx.commit();
                    }
                    if (deadline != null) {
                        deadlines.put(id, deadline);
                    }
                    written.add(id);
                    live.add(id);
                    for (FactId t : targets) {
                        citedBy.computeIfAbsent(t, x -> new HashSet<>()).add(id);
                    }
                } else if (op < 6 && !live.isEmpty()) {
                    List<FactId> l = new ArrayList<>(live);
                    FactId id = l.get(rnd.nextInt(l.size()));
                    var tx = s.begin(ALICE);
                    tx.retract(id, "wrong");
                    tx.commit();
                    live.remove(id);
                } else if (op < 8) {
                    FactId id = citable.get(rnd.nextInt(citable.size()));
                    var r = s.erasure().forget(ALICE, List.of(id), "request " + step, false);
                    forgotten.addAll(r.forgotten());
                    live.removeAll(r.forgotten());
                } else {
                    clock = clock.plusSeconds(3600L * (1 + rnd.nextInt(24)));
                    Instant now = clock;
                    var r = s.erasure().expire(ALICE, now, false);
                    for (var e : r.forgotten()) {
                        assertThat(e.deadline()).isBeforeOrEqualTo(now).isEqualTo(deadlines.get(e.id()));
                        forgotten.add(e.id());
                        live.remove(e.id());
                    }
                    for (Map.Entry<FactId, Instant> d : deadlines.entrySet()) {
                        if (!d.getValue().isAfter(now)) {
                            assertThat(forgotten).as("expired by " + now).contains(d.getKey());
                        }
                    }
                }
                commits.add(s.head());
                check(s, forgotten, citedBy, claims, lastDerivations, commits);
            }
        }
        try (Auditor a = Auditor.open(dir.resolve("store.git"))) {
            assertThat(a.audit(AuditProgress.none()).violations()).isEmpty();
        }
    }

    private static void check(Store s, Set<FactId> forgotten, Map<FactId, Set<FactId>> citedBy, Set<FactId> claims,
            Map<FactId, Set<FactId>> lastDerivations, List<CommitId> commits) throws Exception {
        for (FactId f : forgotten) {
            Set<FactId> derivations = new TreeSet<>(s.erasure().unlearnCheck(f).derivations());
            assertThat(derivations).as("derivations of " + f).containsAll(transitive(f, citedBy));
            assertThat(derivations).as("never shrinks: " + f).containsAll(lastDerivations.getOrDefault(f, Set.of()));
            lastDerivations.put(f, derivations);
            int i = Integer.parseInt(f.value().substring(1));
            assertThat(s.history(f).get(0).change()).as("history of " + f).isEqualTo(HistoryEntry.Change.FORGOTTEN);
            for (CommitId c : commits) {
                assertThat(catchThrowableOfType(() -> s.read(f, c), NotFoundException.class)).as(f + " at " + c)
                        .hasMessageContaining("forgotten at");
                assertThat(s.recall().search(SearchQuery.builder(token(i)).at(c).build())).as("search " + f + " at " + c)
                        .noneMatch(h -> h.id().equals(f));
                BriefRequest br = BriefRequest.builder().entity("ent" + f.value()).build();
                String brief = String.join("\n", s.recall().brief(br.toBuilder().query(token(i)).at(c)
                        .build()).sections().stream().flatMap(x -> x.lines().stream()).toList());
                assertThat(brief).as("brief " + f + " at " + c).doesNotContain(token(i) + " ");
            }
            if (claims.contains(f)) {
                List<ClaimView> cur = s.claims().at(s.head()).chain("ent" + f.value(), "has");
                assertThat(cur).as("claims of " + f).isEmpty();
            }
        }
        for (FactId citer : citedByAny(citedBy)) {
            if (forgotten.contains(citer)) {
                continue;
            }
            FactRead r;
            try {
                r = s.read(citer, s.head());
            } catch (NotFoundException e) {
                continue;
            }
            Ref[] refs = (r instanceof FactRead.Found fd ? fd.fact() : ((FactRead.Retracted) r).lastFact()).refs()
                    .toArray(new Ref[0]);
            for (Ref ref : refs) {
                if (forgotten.contains(ref.id())) {
                    assertThat(ref.quote()).as("quote of forgotten " + ref.id() + " in " + citer).isNull();
                }
            }
        }
    }

    private static Set<FactId> citedByAny(Map<FactId, Set<FactId>> citedBy) {
        Set<FactId> out = new TreeSet<>();
        citedBy.values().forEach(out::addAll);
        return out;
    }

    private static Set<FactId> transitive(FactId f, Map<FactId, Set<FactId>> citedBy) {
        Set<FactId> out = new TreeSet<>();
        List<FactId> todo = new ArrayList<>(citedBy.getOrDefault(f, Set.of()));
        while (!todo.isEmpty()) {
            FactId x = todo.remove(todo.size() - 1);
            if (out.add(x)) {
                todo.addAll(citedBy.getOrDefault(x, Set.of()));
            }
        }
        return out;
    }
}
