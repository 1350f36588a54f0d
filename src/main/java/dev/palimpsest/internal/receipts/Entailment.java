package dev.palimpsest.internal.receipts;

import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.query.FactCache;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.Ontology;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Keeps one store's entailed edges in step with its live assertions. The entailer's state for some
 * commit C lives in memory between runs of a store instance and in the {@link EntailStateFile}
 * between processes; a run starting from it reads only what changed between C and main's tip (the
 * assertion files added, revised or removed, and entailed-edge files other writers changed), applies
 * that by delete-and-rederive, and compares the store's edges only in the affected region, read by
 * path. Without a usable state (none, unreadable, another ontology, C not an ancestor of the tip)
 * it recomputes from scratch over the whole receipt graph.
 *
 * <p>A state is kept (and saved) only for a commit at which the store's entailed edges match it
 * exactly: the tip when nothing had to be written, or the commit that wrote the changes when it
 * landed directly on that tip; otherwise the in-memory state is dropped and the saved one, still
 * valid for its older commit, is used next time. Not thread-safe: the caller serialises runs.
 */
public final class Entailment {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Entailment.class);
    /**
     * A prepared run: what to write ({@code changes}), how many edges are entailed, whether it
     * started from a kept or saved state rather than from scratch ({@code incremental}), and how it
     * was computed, for people ({@code basis}: the state it started from, or why it recomputed);
     * the rest is what {@link #landed} needs.
     */
    public record Run(EntailSync.Changes changes, int edges, boolean incremental, String basis, ObjectId tip,
            Entailer entailer, Ontology ontology) {
        Run(EntailSync.Changes changes, boolean incremental, String basis, ObjectId tip, Entailer entailer,
                Ontology ontology) {
            this(changes, entailer.entailed().size(), incremental, basis, tip, entailer, ontology);
        }
    }

    private record Held(Entailer entailer, Ontology ontology, ObjectId commit, String where) {}

    private final GitRepo repo;
    private final PredicateIndex index;
    private final FactCache cache;
    private Held held;
    private ObjectId saved;

    public Entailment(GitRepo repo, PredicateIndex index, FactCache cache) {
        this.repo = repo;
        this.index = index;
        this.cache = cache;
    }

    /**
     * Computes what brings the edges at {@code tip} up to date. The in-memory state is taken out
     * for the run and comes back only through {@link #landed}. {@code graphAt} loads the whole
     * receipt graph, for the from-scratch path only.
     */
    public Run prepare(ObjectId tip, Function<ObjectId, ReceiptGraph> graphAt) {
        index.catchUp(tip);
        try (ObjectReader reader = repo.newReader(); RevWalk walk = new RevWalk(reader)) {
            RevCommit head = walk.parseCommit(tip);
            Ontology onto = EntailTrees.config(reader, head.getTree()).ontology();
            String fingerprint = EntailStateFile.fingerprint(onto);
            List<String> why = new ArrayList<>();
            Held from = take();
            if (from != null && !EntailStateFile.fingerprint(from.ontology()).equals(fingerprint)) {
                why.add("the ontology changed since the in-memory state");
                from = null;
            } else if (from != null && !isAncestor(from.commit(), head, walk)) {
                why.add("the in-memory state's commit is not an ancestor of main");
                from = null;
            }
            if (from == null) {
                from = load(onto, fingerprint, head, walk, why);
            }
            if (from == null) {
                ReceiptGraph g = graphAt.apply(tip);
                Entailer e = new Entailer(onto);
                EntailSync.assertions(g).forEach(e::addAssertion);
                e.apply();
                return new Run(EntailSync.diff(g, e), false, "from scratch: " + String.join("; ", why), tip, e, onto);
            }
            Entailer e = from.entailer();
            EntailTrees.Delta d = EntailTrees.between(reader, cache, walk.parseCommit(from.commit()).getTree(),
                    head.getTree());
            d.assertions().forEach((id, now) -> {
                Entailer.Triple before = e.assertion(id);
                if (now == null || !now.equals(before)) {
                    e.removeAssertion(id);
                    if (now != null) {
                        e.addAssertion(id, now);
                    }
                }
            });
            Set<Entailer.Triple> region = new HashSet<>(e.apply());
            region.addAll(d.edges());
            List<FactId> ids = region.stream().map(EntailSync::edgeId).toList();
            Map<FactId, Fact> stored = EntailTrees.edgesAt(reader, cache, head.getTree(), ids);
            String basis = "incremental from the " + from.where() + " state at " + from.commit().abbreviate(7).name()
                    + ": " + d.assertions().size() + " assertion file(s) and " + d.edges().size()
                    + " entailed-edge file(s) changed since, " + region.size() + " triple(s) compared";
            return new Run(EntailSync.diff(e, region, stored), true, basis, tip, e, onto);
        } catch (IOException | FormatException e) {
            throw new PalimpsestInternalException("cannot read " + tip.name() + " for entailment: " + e.getMessage(), e);
        }
    }

    /**
     * Records the outcome of {@code run}: {@code landed} is the commit that wrote its changes, null
     * when there was nothing to write. Keeps and saves the state when the store's edges now match
     * it at a known commit (the tip, or {@code landed} when its parent is the tip the run read); a
     * failed save only costs the next process a recomputation.
     */
    public void landed(Run run, ObjectId landed) {
        ObjectId at = landed == null ? run.tip() : run.tip().equals(parentOf(landed)) ? landed : null;
        if (at == null) {
            return;
        }
        held = new Held(run.entailer(), run.ontology(), at.copy(), "in-memory");
        if (at.equals(saved)) {
            return;
        }
        // under the writer lock no forget lands; a state older than a forget may hold what it erased
        try (dev.palimpsest.internal.git.WriterLock.Held lock = new dev.palimpsest.internal.git.WriterLock(repo.gitDir())
                .acquire()) {
            if (dev.palimpsest.internal.forget.Tombstones.addedBetween(repo, at, repo.head())) {
                return;
            }
            EntailStateFile.write(repo.gitDir(), at, run.ontology(), run.entailer().export());
            saved = at.copy();
        } catch (IOException e) {
            saved = null;
        }
    }

    private ObjectId parentOf(ObjectId commit) {
        try (RevWalk walk = new RevWalk(repo.repository())) {
            RevCommit c = walk.parseCommit(commit);
            return c.getParentCount() == 0 ? null : c.getParent(0).copy();
        } catch (IOException e) {
            return null;
        }
    }

    private Held take() {
        Held h = held;
        held = null;
        return h;
    }

    private Held load(Ontology onto, String fingerprint, RevCommit head, RevWalk walk, List<String> why)
            throws IOException {
        EntailStateFile.Saved s;
        try {
            s = EntailStateFile.read(repo.gitDir());
        } catch (IOException e) {
            why.add("the saved state is unreadable (" + e.getMessage() + ")");
            notice(why);
            return null;
        }
        if (s == null) {
            why.add("no saved state");
            return null;
        }
        if (!s.ontology().equals(fingerprint)) {
            why.add("the saved state is for another ontology");
            return null;
        }
        if (!isAncestor(s.commit(), head, walk)) {
            why.add("the saved state's commit " + s.commit().abbreviate(7).name() + " is not an ancestor of main");
            notice(why);
            return null;
        }
        try {
            Entailer e = Entailer.restore(onto, s.state());
            saved = s.commit();
            return new Held(e, onto, s.commit(), "saved");
        } catch (IllegalArgumentException e) {
            why.add("the saved state is inconsistent (" + e.getMessage() + ")");
            notice(why);
            return null;
        }
    }

    /** One log line: a saved state that is not this store's history's is not used. */
    private void notice(List<String> why) {
        LOG.info("ignored the entailment state " + EntailStateFile.path(repo.gitDir()) + " ("
                + why.get(why.size() - 1) + "); recomputing from scratch");
    }

    private boolean isAncestor(ObjectId c, RevCommit head, RevWalk walk) throws IOException {
        if (index.onFirstParentChain(c, head)) {
            return true;
        }
        try {
            return walk.isMergedInto(walk.parseCommit(c), head);
        } catch (MissingObjectException | IncorrectObjectTypeException e) {
            return false;
        }
    }
}
