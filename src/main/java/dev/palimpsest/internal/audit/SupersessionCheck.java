package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Rule;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code already-superseded} rule on history, as the gate applies it at write time: a fact
 * version that newly supersedes a target (a {@code supersedes} ref its previous version did not
 * carry) is a violation when a fact live at the first parent already supersedes that target, or
 * when another fact of the same commit supersedes it too. Live supersessions at the parent come
 * from a predicate index of the audited repository, built on first need. Merge commits are held to
 * the convergent merge instead. Thread-safe.
 */
public final class SupersessionCheck implements AuditCheck {
    private final GitRepo repo;
    private PredicateIndex index;

    public SupersessionCheck(GitRepo repo) {
        this.repo = repo;
    }

    private synchronized PredicateIndex index() {
        if (index == null) {
            index = PredicateIndex.open(repo);
        }
        return index;
    }

    @Override
    public boolean readsRepository(AuditedCommit c) {
        try {
            return c.parent() != null && !newSupersessions(c).isEmpty();
        } catch (IOException e) {
            return false; // the check itself reports the unreadable object
        }
    }

    @Override
    public void check(AuditedCommit c) throws IOException {
        if (c.parent() == null) {
            return;
        }
        Map<String, Set<String>> added = newSupersessions(c);
        Map<String, String> here = new HashMap<>();
        for (Map.Entry<String, Set<String>> e : added.entrySet()) {
            String path = e.getKey();
            FactId id = StorePaths.idFromPath(path);
            for (String target : e.getValue()) {
                String other = here.putIfAbsent(target, id.value());
                if (other == null) {
                    other = index().liveSuperseder(target, c.parent());
                }
                if (other != null && !other.equals(id.value())) {
                    c.violation(path, Rule.ALREADY_SUPERSEDED, target + " was already superseded by " + other);
                }
            }
        }
    }

    /** Path of each fact version the commit writes to the targets its new {@code supersedes} refs name, in path order. */
    private static Map<String, Set<String>> newSupersessions(AuditedCommit c) throws IOException {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (Change ch : c.changes()) {
            String p = ch.path();
            if (!ch.present() || StorePaths.FACT_FOLDERS.stream().noneMatch(f -> p.startsWith(f + "/"))) {
                continue;
            }
            Fact now = c.fact(ch.newBlob());
            if (now == null) {
                continue; // the file check reports it
            }
            Set<String> targets = supersedes(now);
            if (!targets.isEmpty() && ch.oldBlob() != null) {
                Fact before = c.fact(ch.oldBlob());
                if (before != null) {
                    targets.removeAll(supersedes(before));
                }
            }
            if (!targets.isEmpty()) {
                out.put(p, targets);
            }
        }
        return out;
    }

    private static Set<String> supersedes(Fact f) {
        Set<String> out = new TreeSet<>();
        for (Ref r : f.refs()) {
            if (RefRole.SUPERSEDES.equals(r.role())) {
                out.add(r.id().value());
            }
        }
        return out;
    }
}
