package dev.palimpsest.api;

import dev.palimpsest.internal.forget.Forgetting;
import dev.palimpsest.internal.forget.Scrub;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.vault.Vault;
import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.TombstoneRecord;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.ExpireReport;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.ForgetReport;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.UnlearnReport;
import dev.palimpsest.model.Violation;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * Erasure of sealed content: {@link #forget} (one signed commit of tombstones with their closure
 * anchors, cascading to sealed derived artifacts; then the data keys are destroyed and the caches
 * scrubbed), {@link #expire} (forget everything past its retention deadline) and
 * {@link #unlearnCheck} (what derives from a fact and whether any of it is still readable).
 * Thread-safe; arguments must not be null.
 */
public final class Erasure {
    private final Store store;
    private final GitRepo repo;
    private final Writer writer;

    Erasure(Store store, GitRepo repo, Writer writer) {
        this.store = store;
        this.repo = repo;
        this.writer = writer;
    }

    /**
     * Forgets {@code ids} with {@code reason} as {@code actor} in one signed commit; with {@code dryRun},
     * only reports what it would do.
     *
     * @throws RejectedException a fact never written, already forgotten (naming its first tombstone's
     *     commit), with a plaintext version, or a blank reason; nothing is written
     */
    public ForgetReport forget(ActorName actor, List<FactId> ids, String reason, boolean dryRun)
            throws RejectedException, ConflictException {
        return forget(actor, ids, reason, dryRun, false);
    }

    /**
     * As {@link #forget(ActorName, List, String, boolean)}, and also forgets, in the same commit,
     * every sealed fact of the closure (each fact that cites, quotes or rests on a forgotten one,
     * transitively), not only the sealed merges, edges and summaries; plaintext members stay and are
     * reported for review.
     *
     * @throws RejectedException as {@link #forget(ActorName, List, String, boolean)}; nothing is written
     */
    public ForgetReport forgetWithDerived(ActorName actor, List<FactId> ids, String reason, boolean dryRun)
            throws RejectedException, ConflictException {
        return forget(actor, ids, reason, dryRun, true);
    }

    private ForgetReport forget(ActorName actor, List<FactId> ids, String reason, boolean dryRun, boolean withDerived)
            throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(ids, "ids");
        if (ids.isEmpty()) {
            throw new RejectedException(Rule.EMPTY_TRANSACTION, "forget", "name at least one fact to forget");
        }
        if (dryRun) {
            return plan(ids, reason, withDerived);
        }
        List<Operation> ops = new ArrayList<>();
        for (FactId id : new LinkedHashSet<>(ids)) {
            ops.add(new Operation.Forget(id, reason, null, withDerived));
        }
        return land(actor, ops);
    }

    /**
     * Forgets, as {@code actor}, every fact (live or retracted, not yet forgotten) whose retention
     * deadline is at or before {@code now}, each once, its tombstone recording that deadline.
     */
    public ExpireReport expire(ActorName actor, Instant now, boolean dryRun) throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(now, "now");
        List<ExpireReport.Expired> due = due(now);
        if (due.isEmpty() || dryRun) {
            return new ExpireReport(null, due);
        }
        List<Operation> ops = new ArrayList<>();
        for (ExpireReport.Expired e : due) {
            ops.add(new Operation.Forget(e.id(), "retention deadline " + e.deadline() + " passed", e.deadline()));
        }
        ForgetReport r = land(actor, ops);
        return new ExpireReport(r.commit(), due);
    }

    /**
     * What derives from {@code id} (its tombstone's closure and its transitive dependents over all
     * history at main's tip) and which of those, and {@code id} itself, can still be read: a fact
     * never forgotten is readable, so its check is never clean.
     *
     * @throws NotFoundException when {@code id} was never written on main
     */
    public UnlearnReport unlearnCheck(FactId id) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        store.catchUpWithForgets();
        ObjectId head = repo.head();
        Forgetting f = writer.forgetting();
        TreeSet<FactId> derivations = new TreeSet<>();
        try (Snapshot s = Snapshot.of(repo, head)) {
            TombstoneRecord t = Forgetting.tombstone(s, id);
            if (t == null && writer.index().eventsAt(id, head).isEmpty()) {
                throw new NotFoundException("fact " + id + " was never written on main");
            }
            if (t != null) {
                derivations.addAll(t.closure());
            }
            derivations.addAll(f.closure(id, head));
            List<FactId> readable = new ArrayList<>();
            if (readable(s, f, id, head)) {
                readable.add(id);
            }
            for (FactId m : derivations) {
                if (readable(s, f, m, head)) {
                    readable.add(m);
                }
            }
            List<String> caches = t == null ? List.of() : dev.palimpsest.internal.forget.StaleCopies.settle(repo, id);
            return new UnlearnReport(id, new ArrayList<>(derivations), readable, caches);
        }
    }

    private boolean readable(Snapshot s, Forgetting f, FactId m, ObjectId head) {
        if (writer.index().eventsAt(m, head).isEmpty()) {
            return false;
        }
        if (f.plaintextVersion(m, head) != null) {
            return true;
        }
        return Forgetting.tombstone(s, m) == null && repo.vault().key(m) != null;
    }

    private ForgetReport plan(List<FactId> ids, String reason, boolean withDerived) throws RejectedException {
        ObjectId head = repo.head();
        Forgetting f = writer.forgetting();
        List<Violation> bad = new ArrayList<>();
        if (reason == null || reason.isBlank()) {
            bad.add(new Violation(Rule.REASON_REQUIRED, "forget", "forget needs a reason"));
        } else {
            dev.palimpsest.model.Text.findProblem("the reason", reason)
                    .ifPresent(p -> bad.add(new Violation(Rule.INVALID_TEXT, "forget", p)));
        }
        LinkedHashSet<FactId> forgotten = new LinkedHashSet<>();
        TreeSet<FactId> closure = new TreeSet<>();
        try (Snapshot s = Snapshot.of(repo, head)) {
            for (FactId id : new LinkedHashSet<>(ids)) {
                String subject = "fact " + id;
                ObjectId plain = f.plaintextVersion(id, head);
                if (Forgetting.tombstone(s, id) != null) {
                    bad.add(new Violation(Rule.ALREADY_FORGOTTEN, subject, "was already forgotten at "
                            + f.tombstoneCommit(id, head).name() + " (its first tombstone)"));
                } else if (writer.index().eventsAt(id, head).isEmpty()) {
                    bad.add(new Violation(Rule.NOT_FOUND, subject, "was never written in the ancestry of " + head.name()));
                } else if (plain != null) {
                    bad.add(new Violation(Rule.FORGET_PLAINTEXT, subject, id + " was written in plaintext at "
                            + plain.name() + "; forgetting cannot erase it without rewriting signed history; retract it instead"));
                } else {
                    cascade(f, id, head, forgotten, closure, withDerived);
                }
            }
        }
        if (!bad.isEmpty()) {
            throw new RejectedException(bad);
        }
        return report(null, new ArrayList<>(forgotten), closure);
    }

    private static void cascade(Forgetting f, FactId id, ObjectId at, LinkedHashSet<FactId> forgotten,
            TreeSet<FactId> closure, boolean withDerived) {
        if (!forgotten.add(id)) {
            return;
        }
        SortedSet<FactId> c = f.closure(id, at);
        closure.addAll(c);
        for (FactId m : f.cascade(c, at, withDerived)) {
            cascade(f, m, at, forgotten, closure, withDerived);
        }
    }

    /**
     * After a pull moved main from {@code before} to {@code after}: destroys the data key of every
     * fact whose tombstone arrived (in {@code after}'s tree, not in {@code before}'s) that the local
     * vault still holds (the writer destroys them before main moves; this settles an interrupted
     * one), and then scrubs the caches that may hold their plaintext, as a local forget does.
     * Returns the facts whose tombstones arrived, sorted.
     */
    List<FactId> forgetPulled(ObjectId before, ObjectId after) {
        if (before == null || before.equals(after)) {
            return List.of();
        }
        List<FactId> arrived = new ArrayList<>(dev.palimpsest.internal.forget.Tombstones.addedBetweenCommits(repo, before,
                after));
        if (!arrived.isEmpty()) {
            repo.vault().forgotten(arrived);
            scrubCaches();
        }
        arrived.sort(java.util.Comparator.comparing(FactId::value));
        return arrived;
    }

    private ForgetReport land(ActorName actor, List<Operation> ops) throws RejectedException, ConflictException {
        Landed landed = commit(actor, ops);
        finish(landed);
        return report(landed.result());
    }

    /** A forget's commit and the intent that stays in the vault until its keys are destroyed. */
    record Landed(CommitResult result, Vault.Intent intent) {}

    /**
     * The forget's signed commit, its intent recorded first (durably) and kept: a process that dies
     * after this leaves the keys and caches for {@link Forgetting#settleInterrupted} on the next open.
     */
    Landed commit(ActorName actor, List<Operation> ops) throws RejectedException, ConflictException {
        Vault.Intent intent = repo.vault().intendForget();
        try {
            return new Landed(writer.write(actor, store.signer(actor), ops), intent);
        } catch (RejectedException | ConflictException | RuntimeException e) {
            intent.done();
            throw e;
        }
    }

    /** Destroys the forgotten facts' keys, scrubs every cache that may hold their plaintext, then ends the intent. */
    private void finish(Landed landed) {
        for (FactId id : landed.result().forgotten()) {
            repo.vault().destroy(id);
        }
        scrubCaches();
        landed.intent().done();
    }

    /** Closes this store's handles on the caches that may hold plaintext, then deletes them (rebuilt from git). */
    private void scrubCaches() {
        store.recall().scrub();
        store.claims().scrub();
        Scrub.caches(repo);
    }

    private ForgetReport report(CommitResult r) {
        TreeSet<FactId> closure = new TreeSet<>();
        try (Snapshot s = Snapshot.of(repo, ObjectId.fromString(r.id().hex()))) {
            for (FactId id : r.forgotten()) {
                closure.addAll(Forgetting.tombstone(s, id).closure());
            }
        }
        return report(r.id(), r.forgotten(), closure);
    }

    private static ForgetReport report(CommitId commit, List<FactId> forgotten, TreeSet<FactId> closure) {
        List<FactId> review = closure.stream().filter(m -> !forgotten.contains(m)).toList();
        return new ForgetReport(commit, forgotten, new ArrayList<>(closure), review);
    }

    /** Facts at main's tip (live, or retracted with their pinned version) whose deadline is at or before {@code now}. */
    private List<ExpireReport.Expired> due(Instant now) {
        ObjectId head = repo.head();
        List<ExpireReport.Expired> out = new ArrayList<>();
        try (ObjectReader reader = repo.newReader(); Snapshot s = Snapshot.of(repo, head)) {
            RevCommit c = RevCommit.parse(reader.open(head, Constants.OBJ_COMMIT).getCachedBytes());
            TreeWalk tw = new TreeWalk(reader);
            tw.addTree(c.getTree());
            tw.setRecursive(true);
            while (tw.next()) {
                String path = tw.getPathString();
                String top = path.substring(0, path.indexOf('/') < 0 ? 0 : path.indexOf('/'));
                byte[] bytes;
                if (StorePaths.FACT_FOLDERS.contains(top)) {
                    bytes = reader.open(tw.getObjectId(0), Constants.OBJ_BLOB).getCachedBytes(Snapshot.MAX_READ);
                } else if (StorePaths.RETRACTIONS.equals(top)) {
                    try {
                        var rec = FactCodec.decodeRetraction(reader.open(tw.getObjectId(0)).getCachedBytes(Snapshot.MAX_READ), path);
                        bytes = reader.open(ObjectId.fromString(rec.version().blob().hex())).getCachedBytes(Snapshot.MAX_READ);
                    } catch (FormatException | IOException e) {
                        continue;
                    }
                } else {
                    continue;
                }
                Fact f;
                try {
                    f = FactCodec.decodeFact(bytes, path);
                } catch (FormatException e) {
                    continue;
                }
                if (f.retainUntil() != null && !f.retainUntil().isAfter(now) && f.seal() != null
                        && Forgetting.tombstone(s, f.id()) == null) {
                    out.add(new ExpireReport.Expired(f.id(), f.retainUntil()));
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read " + repo.gitDir() + ": " + e.getMessage(), e);
        }
        out.sort(java.util.Comparator.comparing(e -> e.id().value()));
        return out;
    }
}
