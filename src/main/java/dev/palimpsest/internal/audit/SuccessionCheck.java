package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.rules.SuccessionRules;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Ref;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The {@code invalid-succession} rule on revisions in history, as the gate applies it at write time
 * ({@link SuccessionRules#revised}): a fact version that revises a previous one with another
 * validity must keep the succession refs it carries over in valid-time order (each against its
 * pinned target), and the succession refs to it from the claims live at the first parent (their
 * versions there) must hold against the new version. New refs are {@link RefReplay}'s. Claims live
 * at the parent come from a predicate index of the audited repository, built on first need. Merge
 * commits are held to the convergent merge instead. Thread-safe.
 */
public final class SuccessionCheck implements AuditCheck {
    private final GitRepo repo;
    private PredicateIndex index;

    public SuccessionCheck(GitRepo repo) {
        this.repo = repo;
    }

    private synchronized PredicateIndex index() {
        if (index == null) {
            index = PredicateIndex.open(repo);
        }
        return index;
    }

    /** A revision in the commit that changes the fact's validity. */
    private record Revision(String path, Fact before, Fact now) {}

    @Override
    public boolean readsRepository(AuditedCommit c) {
        try {
            return c.parent() != null && !revisions(c).isEmpty();
        } catch (IOException e) {
            return false; // the check itself reports the unreadable object
        }
    }

    @Override
    public void check(AuditedCommit c) throws IOException {
        if (c.parent() == null) {
            return;
        }
        for (Revision r : revisions(c)) {
            List<Fact> citers = new ArrayList<>();
            for (FactState st : index().liveSuccessionCiters(r.now().id().value(), c.parent())) {
                Fact f = c.fact(st.blob());
                if (f != null) {
                    citers.add(f);
                }
            }
            List<IOException> unread = new ArrayList<>(1);
            SuccessionRules.revised(r.before(), r.now(), ref -> pinned(c, ref, unread), citers,
                    (rule, msg) -> c.violation(r.path(), rule, msg));
            if (!unread.isEmpty()) {
                throw unread.get(0);
            }
        }
    }

    private static Fact pinned(AuditedCommit c, Ref r, List<IOException> unread) {
        if (r.blob() == null) {
            return null;
        }
        try {
            return c.fact(ObjectId.fromString(r.blob().hex()));
        } catch (IOException e) {
            unread.add(e);
            return null;
        }
    }

    /** The fact versions the commit writes over a previous version with another validity, in path order. */
    private static List<Revision> revisions(AuditedCommit c) throws IOException {
        List<Revision> out = new ArrayList<>();
        for (Change ch : c.changes()) {
            String p = ch.path();
            if (!ch.present() || ch.oldBlob() == null
                    || StorePaths.FACT_FOLDERS.stream().noneMatch(f -> p.startsWith(f + "/"))) {
                continue;
            }
            Fact now = c.fact(ch.newBlob());
            Fact before = now == null ? null : c.fact(ch.oldBlob());
            if (before != null && before.id().equals(now.id()) && !before.validity().equals(now.validity())) {
                out.add(new Revision(p, before, now));
            }
        }
        return out;
    }
}
