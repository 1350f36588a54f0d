package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.derive.Derivation;
import dev.palimpsest.internal.forget.Forgetting;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.TombstoneRecord;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Rule;
import java.io.IOException;
import java.util.SortedSet;
import java.util.TreeSet;
import org.eclipse.jgit.lib.Constants;

/**
 * The forget rules on history: a tombstone is added once and never changed or removed, and its id
 * is never written again ({@code tombstone-rewritten}); the forget commit removes the fact's file
 * and its digest is the sealed digest of the fact's last version ({@code forget-inconsistent}); its
 * closure holds every derivation of the fact at the parent ({@code tombstone-closure}); the sealed
 * merges, edges and summaries of that closure are forgotten in the same commit
 * ({@code forget-cascade}); and, auditing a local store, its vault holds no key of a forgotten fact
 * ({@code key-not-destroyed}). Closures are recomputed from a predicate index of the audited
 * repository, built on first need. Thread-safe.
 */
public final class ForgetCheck implements AuditCheck {
    private final GitRepo repo;
    private final boolean checkVault;
    private Forgetting forgetting;

    /** {@code checkVault}: also report keys the local vault still holds (not for a pull's incoming commits). */
    public ForgetCheck(GitRepo repo, boolean checkVault) {
        this.repo = repo;
        this.checkVault = checkVault;
    }

    private synchronized Forgetting forgetting() {
        if (forgetting == null) {
            PredicateIndex index = PredicateIndex.open(repo);
            forgetting = new Forgetting(repo, index, new Derivation(repo, index));
        }
        return forgetting;
    }

    /** A tombstone added on top of a parent: its closure is computed with the store's predicate index. */
    @Override
    public boolean readsRepository(AuditedCommit c) {
        return c.parent() != null && c.changes().stream()
                .anyMatch(ch -> ch.kind() == Change.Kind.ADDED && ch.path().startsWith(StorePaths.TOMBSTONES + "/"));
    }

    @Override
    public void check(AuditedCommit c) throws IOException {
        for (Change ch : c.changes()) {
            String p = ch.path();
            if (p.startsWith(StorePaths.TOMBSTONES + "/")) {
                if (ch.kind() != Change.Kind.ADDED) {
                    c.violation(p, Rule.TOMBSTONE_REWRITTEN, "a tombstone is never " + (ch.present() ? "changed" : "removed"));
                } else {
                    added(c, ch);
                }
            } else if (ch.kind() == Change.Kind.ADDED && StorePaths.FACT_FOLDERS.stream().anyMatch(f -> p.startsWith(f + "/"))) {
                FactId id = StorePaths.idFromPath(p);
                if (id != null && c.parentBlobAt(StorePaths.tombstonePath(id)) != null) {
                    c.violation(p, Rule.TOMBSTONE_REWRITTEN, id + " was forgotten; a forgotten id is never written again");
                }
            }
        }
    }

    private void added(AuditedCommit c, Change ch) throws IOException {
        TombstoneRecord t;
        try {
            t = TombstoneRecord.decode(c.reading().bytes(ch.newBlob(), Constants.OBJ_BLOB), ch.path());
        } catch (FormatException e) {
            return; // the file check reports it
        }
        FactId id = t.id();
        for (String p : StorePaths.candidatePaths(id)) {
            if (c.blobAt(p) != null) {
                c.violation(p, Rule.FORGET_INCONSISTENT, "the forgotten fact's file is still in the tree");
            }
        }
        if (checkVault && repo.vault().holds(id)) {
            c.violation(ch.path(), Rule.KEY_NOT_DESTROYED, "the vault still holds the data key of " + id + " ("
                    + repo.gitDir().relativize(repo.vault().file(id)) + ")");
        }
        if (c.parent() == null) {
            return;
        }
        Forgetting f = forgetting();
        SortedSet<FactId> closure;
        String digest;
        SortedSet<FactId> cascade;
        synchronized (this) {
            closure = f.closure(id, c.parent());
            digest = f.plaintextVersion(id, c.parent()) == null ? f.digest(id, c.parent()) : null;
            cascade = f.cascade(closure, c.parent());
        }
        if (!t.digest().equals(digest)) {
            c.violation(ch.path(), Rule.FORGET_INCONSISTENT, digest == null
                    ? id + " has no sealed last version, or a plaintext version, at the parent: forgetting it erases nothing"
                    : "the digest is not the sealed digest of " + id + "'s last version (" + digest + ")");
        }
        TreeSet<FactId> missing = new TreeSet<>(closure);
        missing.removeAll(t.closure());
        if (!missing.isEmpty()) {
            c.violation(ch.path(), Rule.TOMBSTONE_CLOSURE, "the closure misses " + missing + ", which derive from "
                    + id + " at the parent");
        }
        for (FactId m : cascade) {
            Change mt = c.change(StorePaths.tombstonePath(m));
            if (mt == null || mt.kind() != Change.Kind.ADDED) {
                c.violation(ch.path(), Rule.FORGET_CASCADE, m + " is a sealed derived artifact of " + id
                        + " and is not forgotten in the same commit");
            }
        }
    }
}
