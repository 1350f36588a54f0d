package dev.palimpsest.files;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.extension.ExtendWith;
import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Dependent;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dependents} at random past commits against an in-memory model: each fact's versions (the
 * commit index that wrote it and the targets it cites) and liveness per commit. The seed comes
 * from {@link Seeds}; {@code -Dpalimpsest.seed=N} replays a run.
 */
@ExtendWith(Seeds.class)
class DependentsModelTest {
    @TempDir
    Path dir;

    /** One version: written at commit index {@code at}, citing {@code targets}. */
    record Version(int at, Set<String> targets) {}

    @Test
    void dependentsMatchTheModelAtRandomPastCommits(Seed seed) throws Exception {
        Random rnd = seed.random();
        Map<String, List<Version>> versions = new TreeMap<>();
        List<Set<String>> liveAt = new ArrayList<>();
        List<CommitId> commits = new ArrayList<>();
        Set<String> live = new HashSet<>();
        try (Store s = TestStores.init(dir)) {
            for (int step = 0; step < 60; step++) {
                List<String> liveList = new ArrayList<>(live);
                liveList.sort(null);
                int k = commits.size();
                Transaction tx = s.begin(ALICE);
                int op = rnd.nextInt(10);
                if (liveList.isEmpty() || op < 5) {
                    String id = "f" + step;
                    Set<String> targets = new HashSet<>();
                    for (int i = 0; i < Math.min(liveList.size(), rnd.nextInt(3)); i++) {
                        targets.add(liveList.get(rnd.nextInt(liveList.size())));
                    }
                    tx.assertFact(FactSpec.of(Kind.CLAIM, "fact " + id).id(FactId.of(id))
                            .refs(targets.stream().sorted().map(t -> RefSpec.cites(FactId.of(t))).toList()));
                    versions.computeIfAbsent(id, x -> new ArrayList<>()).add(new Version(k, targets));
                    live.add(id);
                } else if (op < 7) {
                    String id = liveList.get(rnd.nextInt(liveList.size()));
                    tx.retract(FactId.of(id), "model step " + step);
                    live.remove(id);
                } else {
                    String id = liveList.get(rnd.nextInt(liveList.size()));
                    List<Version> vs = versions.get(id);
                    Set<String> carried = new HashSet<>(vs.get(vs.size() - 1).targets());
                    String t = liveList.get(rnd.nextInt(liveList.size()));
                    List<RefSpec> add = t.equals(id) || carried.contains(t) ? List.of()
                            : List.of(RefSpec.cites(FactId.of(t)));
                    tx.revise(FactId.of(id), "fact " + id + " revised at " + step, add);
                    Set<String> next = new HashSet<>(carried);
                    if (!add.isEmpty()) {
                        next.add(t);
                    }
                    vs.add(new Version(k, next));
                }
                commits.add(tx.commit().id());
                liveAt.add(Set.copyOf(live));
            }
            for (int q = 0; q < 80; q++) {
                int k = rnd.nextInt(commits.size());
                List<String> known = versions.entrySet().stream()
                        .filter(e -> e.getValue().get(0).at() <= k).map(Map.Entry::getKey).toList();
                if (known.isEmpty()) {
                    continue;
                }
                String target = known.get(rnd.nextInt(known.size()));
                boolean transitive = rnd.nextBoolean();
                List<Dependent> got = s.derivations().dependents(FactId.of(target), commits.get(k), transitive);
                List<Dependent> want = model(versions, liveAt.get(k), target, k, transitive);
                assertThat(got).as("%s, dependents of %s at commit %d (transitive %s)", seed, target, k, transitive)
                        .containsExactlyElementsOf(want);
            }
            // never shrinks: the set at each commit contains the set at every earlier commit
            String first = versions.keySet().iterator().next();
            Set<FactId> prev = Set.of();
            for (CommitId c : commits) {
                if (!s.factExistsAt(FactId.of(first), c).commit().hex().isEmpty()) {
                    Set<FactId> now = new HashSet<>();
                    s.derivations().dependents(FactId.of(first), c, true).forEach(d -> now.add(d.id()));
                    assertThat(now).as("%s", seed).containsAll(prev);
                    prev = now;
                }
            }
        } catch (dev.palimpsest.model.NotFoundException e) {
            throw new AssertionError(seed.toString(), e);
        }
    }

    private static List<Dependent> model(Map<String, List<Version>> versions, Set<String> liveAtK, String target, int k,
            boolean transitive) {
        Map<String, Set<String>> citedBy = new HashMap<>();
        versions.forEach((id, vs) -> vs.stream().filter(v -> v.at() <= k)
                .forEach(v -> v.targets().forEach(t -> citedBy.computeIfAbsent(t, x -> new HashSet<>()).add(id))));
        Map<String, Dependent> seen = new HashMap<>();
        Set<String> visited = new HashSet<>(Set.of(target));
        List<String> frontier = List.of(target);
        List<Dependent> out = new ArrayList<>();
        int depth = 0;
        while (!frontier.isEmpty() && (transitive || depth == 0)) {
            depth++;
            Map<String, String> next = new TreeMap<>();
            for (String node : frontier) {
                String via = depth == 1 ? null : seen.get(node).via().value();
                for (String c : citedBy.getOrDefault(node, Set.of())) {
                    if (!visited.contains(c)) {
                        next.merge(c, via == null ? c : via, (a, b) -> a.compareTo(b) <= 0 ? a : b);
                    }
                }
            }
            for (Map.Entry<String, String> e : next.entrySet()) {
                visited.add(e.getKey());
                Dependent d = new Dependent(FactId.of(e.getKey()), depth, FactId.of(e.getValue()),
                        liveAtK.contains(e.getKey()));
                seen.put(e.getKey(), d);
                out.add(d);
            }
            frontier = new ArrayList<>(next.keySet());
        }
        return out;
    }
}
