package dev.palimpsest.temporal;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.FactSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import dev.palimpsest.temporal.TemporalModel.MRef;
import dev.palimpsest.temporal.TemporalModel.Spec;
import dev.palimpsest.temporal.TemporalModel.Version;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Generates a seeded random timeline and applies every transaction to both the store and the
 * {@link TemporalModel}: asserts (fresh and re-adds, any kind), revisions, retractions, supersedes,
 * refs pinned at the parent or at an earlier commit (to live or retracted targets, or to a target
 * written in the same transaction), and transactions the model says are invalid, which the store
 * must reject with exactly the expected rule, leaving the head and the repository unchanged.
 */
final class HistoryGenerator {
    private static final Kind[] KINDS = {Kind.CLAIM, Kind.SOURCE, Kind.HYPOTHESIS};

    private final Random rnd;
    private final TemporalModel model;
    private final Store store;
    private final List<FactId> ids = new ArrayList<>();
    private final String seedNote;
    private final long seed;
    /**
     * Whether a fact whose version carries a same-transaction ref may be revised (on by default;
     * -Dmodel.reviseSameTx=false turns it off).
     */
    private final boolean reviseSameTx = !"false".equals(System.getProperty("model.reviseSameTx"));
    private int bodies;
    int operations;
    int rejected;

    HistoryGenerator(Store store, TemporalModel model, long seed, int idCount) {
        this.store = store;
        this.model = model;
        this.rnd = new Random(seed);
        this.seed = seed;
        this.seedNote = "generator seed " + seed;
        for (int i = 0; i < idCount; i++) {
            ids.add(FactId.of(String.format("f%02d", i)));
        }
    }

    /** Generates and applies transactions until {@code ops} operations were attempted. */
    void run(int ops) throws PalimpsestException {
        while (operations < ops) {
            step();
        }
    }

    /** Steps until one transaction landed. */
    void commitOne() throws PalimpsestException {
        int head = model.head();
        while (model.head() == head) {
            step();
        }
    }

    /** One transaction: 1 to 4 valid operations, and sometimes one invalid operation last. */
    void step() throws PalimpsestException {
        Transaction tx = store.begin(TestStores.ALICE);
        TemporalModel.Tx mtx = model.begin();
        Set<FactId> touched = new HashSet<>();
        Set<FactId> citedAtParent = new HashSet<>();
        supersededInTx.clear();
        int size = rnd.nextInt(100) < 65 ? 1 : 2 + rnd.nextInt(3);
        boolean invalid = rnd.nextInt(100) < 10;
        for (int i = 0; i < size - (invalid ? 1 : 0); i++) {
            validOp(tx, mtx, touched, citedAtParent);
        }
        Violation expected = invalid ? invalidOp(tx, mtx, touched) : null;
        operations += tx.size();
        if (tx.size() == 0) {
            return;
        }
        String where = seedNote + ", transaction on commit #" + mtx.parent;
        if (expected != null) {
            expectRejected(tx, expected, where);
            return;
        }
        CommitResult r = tx.commit();
        mtx.landed(r.id());
        assertThat(r.written()).as(where).containsExactlyElementsOf(mtx.written.keySet());
        assertThat(r.retracted()).as(where).containsExactlyElementsOf(mtx.retracted);
        for (Version v : mtx.written.values()) {
            FactRead.Found f = (FactRead.Found) store.read(v.id, r.id());
            assertThat(f.version().commit()).as(where).isEqualTo(r.id());
            v.blob = f.version().blob();
        }
        for (Version v : mtx.written.values()) {
            FactRead.Found f = (FactRead.Found) store.read(v.id, r.id());
            assertThat(f.fact().body()).as(where).isEqualTo(v.body);
            assertThat(f.fact().kind()).as(where).isEqualTo(v.kind);
            List<Ref> refs = new ArrayList<>();
            for (MRef m : v.refs) {
                refs.add(m.sameTx() ? new Ref(m.target(), RefRole.of(m.role()), null, null, null)
                        : new Ref(m.target(), RefRole.of(m.role()), model.commits.get(m.pinned().commit), m.pinned().blob, null));
            }
            assertThat(f.fact().refs()).as("refs of %s, %s", v, where).containsExactlyElementsOf(refs);
        }
    }

    private void expectRejected(Transaction tx, Violation expected, String where) {
        CommitId head = store.head();
        Set<String> before = TestStores.durableState(store.gitDir());
        try {
            tx.commit();
            fail("expected rejection " + expected + ", " + where);
        } catch (RejectedException e) {
            assertThat(e.violations()).as(where).extracting(Violation::rule).containsExactly(expected.rule());
            assertThat(e.violations().get(0).message()).as(where).contains(expected.message());
        } catch (PalimpsestException e) {
            fail("expected rejection " + expected + ", " + where, e);
        }
        assertThat(store.head()).as(where).isEqualTo(head);
        assertThat(TestStores.durableState(store.gitDir())).as(where).isEqualTo(before);
        rejected++;
    }

    private void validOp(Transaction tx, TemporalModel.Tx mtx, Set<FactId> touched, Set<FactId> citedAtParent) {
        int p = mtx.parent;
        List<FactId> live = pick(id -> !touched.contains(id) && model.live(id, p));
        List<FactId> revisable = pick(id -> !touched.contains(id) && model.live(id, p)
                && (reviseSameTx || !model.state(id, p).version().hasSameTransactionRef()));
        List<FactId> assertable = pick(id -> !touched.contains(id) && !model.live(id, p) && !citedAtParent.contains(id));
        int roll = rnd.nextInt(100);
        if (roll < 30 && !revisable.isEmpty()) {
            FactId id = any(revisable);
            Version old = model.state(id, p).version();
            List<Spec> refs = refs(mtx, id, old.refs, citedAtParent);
            String body = refs.isEmpty() || rnd.nextBoolean() ? body(id) : old.body;
            touched.add(id);
            tx.revise(id, body, specs(refs));
            mtx.revise(id, body, refs);
        } else if (roll < 50 && !live.isEmpty()) {
            FactId id = any(live);
            touched.add(id);
            tx.retract(id, "retracted by step " + operations);
            mtx.retract(id);
        } else if (roll < 60 && !assertable.isEmpty()) {
            // a fact already superseded (by a live fact, or earlier in this transaction) is refused
            List<FactId> olds = pick(id -> (model.exists(id, p) || mtx.pending.containsKey(id)) && !superseded(id, p));
            FactId id = any(assertable);
            olds.remove(id);
            if (olds.isEmpty()) {
                return;
            }
            FactId old = any(olds);
            supersededInTx.add(old);
            if (!mtx.pending.containsKey(old)) {
                citedAtParent.add(old);
            }
            List<Spec> refs = new ArrayList<>();
            refs.add(new Spec(old, "supersedes", null));
            refs.addAll(refs(mtx, id, List.of(new MRef(old, "supersedes", null, false)), citedAtParent));
            touched.add(id);
            Kind kind = KINDS[rnd.nextInt(KINDS.length)];
            String body = body(id);
            tx.supersede(old, FactSpec.of(kind, body).id(id).refs(specs(refs.subList(1, refs.size()))));
            mtx.assertFact(id, kind, body, refs);
        } else if (!assertable.isEmpty()) {
            FactId id = any(assertable);
            TemporalModel.State was = model.state(id, p);
            List<Spec> refs = refs(mtx, id, List.of(), citedAtParent);
            boolean sameContent = was != null && refs.isEmpty() && rnd.nextInt(4) == 0;
            Kind kind = sameContent ? was.version().kind : KINDS[rnd.nextInt(KINDS.length)];
            String body = sameContent ? was.version().body : body(id);
            touched.add(id);
            tx.assertFact(FactSpec.of(kind, body).id(id).refs(specs(refs)));
            mtx.assertFact(id, kind, body, refs);
        }
    }

    private final Set<FactId> supersededInTx = new HashSet<>();

    /** True when a fact live at commit #{@code p}, or one written earlier in this transaction, supersedes {@code t}. */
    private boolean superseded(FactId t, int p) {
        if (supersededInTx.contains(t)) {
            return true;
        }
        for (FactId id : ids) {
            TemporalModel.State st = model.state(id, p);
            if (st != null && st.live() && st.version().refs.stream()
                    .anyMatch(r -> r.target().equals(t) && r.role().equals("supersedes"))) {
                return true;
            }
        }
        return false;
    }

    /** 0 to 2 new refs from {@code referrer}, each to a target existing where it is read. */
    private List<Spec> refs(TemporalModel.Tx mtx, FactId referrer, List<MRef> existing, Set<FactId> citedAtParent) {
        Set<String> seen = new HashSet<>();
        for (MRef m : existing) {
            seen.add(m.target() + " " + m.role());
        }
        List<Spec> out = new ArrayList<>();
        int n = rnd.nextInt(100) < 50 ? 0 : rnd.nextInt(100) < 70 ? 1 : 2;
        for (int i = 0; i < n; i++) {
            int roll = rnd.nextInt(10);
            String role = roll < 8 ? "cites" : roll < 9 ? "derived_from" : "supersedes";
            Integer at = rnd.nextInt(100) < 70 ? null : rnd.nextInt(mtx.parent + 1);
            int readAt = at == null ? mtx.parent : at;
            List<FactId> targets = pick(t -> !t.equals(referrer) && !seen.contains(t + " " + role)
                    && (model.exists(t, readAt) || (at == null && mtx.pending.containsKey(t)))
                    && !(role.equals("supersedes") && superseded(t, mtx.parent)));
            if (targets.isEmpty()) {
                continue;
            }
            FactId t = any(targets);
            if (role.equals("supersedes")) {
                supersededInTx.add(t);
            }
            seen.add(t + " " + role);
            if (at == null && !mtx.pending.containsKey(t)) {
                citedAtParent.add(t);
            }
            out.add(new Spec(t, role, at));
        }
        return out;
    }

    /**
     * Adds one operation the gate must reject and returns the violation it must report (rule and
     * a fragment of its message), or null when no such operation fits the current state.
     */
    private Violation invalidOp(Transaction tx, TemporalModel.Tx mtx, Set<FactId> touched) {
        int p = mtx.parent;
        CommitId parent = model.commits.get(p);
        List<FactId> retracted = pick(id -> !touched.contains(id) && model.exists(id, p) && !model.live(id, p));
        List<FactId> live = pick(id -> !touched.contains(id) && model.live(id, p));
        List<FactId> fresh = pick(id -> !touched.contains(id) && !model.exists(id, p));
        List<FactId> withRefs = pick(id -> live.contains(id) && !model.state(id, p).version().refs.isEmpty());
        switch (rnd.nextInt(10)) {
            case 0:
            case 1:
                if (!retracted.isEmpty()) {
                    FactId id = any(retracted);
                    String at = model.commits.get(model.state(id, p).changedAt()).hex();
                    if (rnd.nextBoolean()) {
                        tx.retract(id, "once more");
                    } else {
                        tx.revise(id, body(id), List.of());
                    }
                    return new Violation(Rule.ofId("not-live"), id.value(), "already retracted at " + at);
                }
                return null;
            case 2:
                if (!fresh.isEmpty()) {
                    tx.retract(any(fresh), "never was");
                    return new Violation(Rule.ofId("not-found"), "", "does not exist at " + parent.hex());
                }
                return null;
            case 3:
                if (!live.isEmpty()) {
                    tx.assertFact(FactSpec.of(Kind.CLAIM, "again").id(any(live)));
                    return new Violation(Rule.ofId("already-exists"), "", "already exists (live at " + parent.hex());
                }
                return null;
            case 4:
                if (!touched.isEmpty()) {
                    tx.retract(touched.iterator().next(), "twice in one transaction");
                    return new Violation(Rule.ofId("duplicate-operation"), "", "more than once in one transaction");
                }
                return null;
            case 5:
                if (!fresh.isEmpty()) {
                    FactId ghost = FactId.of("ghost");
                    tx.assertFact(FactSpec.of(Kind.CLAIM, "cites a ghost").id(any(fresh))
                            .refs(List.of(RefSpec.cites(ghost))));
                    return new Violation(Rule.ofId("ref-target-missing"), "", "ghost does not exist at " + parent.hex());
                }
                return null;
            case 6:
                if (!fresh.isEmpty()) {
                    FactId id = any(fresh);
                    tx.assertFact(FactSpec.of(Kind.CLAIM, "cites itself").id(id).refs(List.of(RefSpec.cites(id))));
                    return new Violation(Rule.ofId("self-reference"), "", "cannot reference itself");
                }
                return null;
            case 7:
                if (!withRefs.isEmpty()) {
                    FactId id = any(withRefs);
                    MRef r = model.state(id, p).version().refs.get(0);
                    tx.revise(id, body(id), List.of(new RefSpec(r.target(), null, RefRole.of(r.role()), null)));
                    return new Violation(Rule.ofId("duplicate-ref"), "", "already cites " + r.target());
                }
                return null;
            case 8:
                if (!live.isEmpty()) {
                    FactId id = any(live);
                    tx.revise(id, model.state(id, p).version().body, List.of());
                    return new Violation(Rule.ofId("no-change"), "", "changes nothing");
                }
                return null;
            default:
                if (!live.isEmpty()) {
                    tx.retract(any(live), "   ");
                    return new Violation(Rule.ofId("reason-required"), "", "needs a reason");
                }
                return null;
        }
    }

    private List<RefSpec> specs(List<Spec> refs) {
        List<RefSpec> out = new ArrayList<>();
        for (Spec s : refs) {
            out.add(new RefSpec(s.target(), s.at() == null ? null : model.commits.get(s.at()), RefRole.of(s.role()), null));
        }
        return out;
    }

    private List<FactId> pick(Predicate<FactId> p) {
        List<FactId> out = new ArrayList<>();
        for (FactId id : ids) {
            if (p.test(id)) {
                out.add(id);
            }
        }
        return out;
    }

    private FactId any(List<FactId> from) {
        return from.get(rnd.nextInt(from.size()));
    }

    private String body(FactId id) {
        return "body " + seed + "." + (++bodies) + " of " + id;
    }
}
