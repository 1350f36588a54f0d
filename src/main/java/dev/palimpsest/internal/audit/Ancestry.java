package dev.palimpsest.internal.audit;

import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Ancestor-or-self questions about the audited commits. When they form one chain (every commit's
 * only parent is the one before it), a commit inside the chain is answered by position and one
 * before it by a cached walk from the chain's base; otherwise by a cached, serialised walk.
 * Thread-safe.
 */
final class Ancestry {
    private final Map<ObjectId, Integer> position;
    private final boolean linear;
    private final ObjectId base;
    private final Repository repo;
    private final Map<ObjectId, Boolean> beforeBase = new ConcurrentHashMap<>();
    private final Map<String, Boolean> pairs = new ConcurrentHashMap<>();

    /** {@code chain} oldest first, each commit with its parents. */
    Ancestry(Repository repo, List<AuditEngine.Node> chain) {
        this.repo = repo;
        this.position = new ConcurrentHashMap<>(chain.size() * 2);
        boolean lin = true;
        for (int i = 0; i < chain.size(); i++) {
            AuditEngine.Node n = chain.get(i);
            position.put(n.id(), i);
            if (i > 0) {
                lin &= n.parents().size() == 1 && n.parents().get(0).equals(chain.get(i - 1).id());
            } else {
                lin &= n.parents().size() <= 1;
            }
        }
        this.linear = lin;
        this.base = chain.isEmpty() || chain.get(0).parents().isEmpty() ? null : chain.get(0).parents().get(0);
    }

    /** True when {@code ancestor} is {@code descendant} or one of its ancestors. */
    boolean isAncestorOrSelf(ObjectId ancestor, ObjectId descendant) {
        if (ancestor.equals(descendant)) {
            return true;
        }
        if (linear) {
            Integer pa = position.get(ancestor);
            Integer pd = position.get(descendant);
            if (pd != null) {
                return pa != null ? pa <= pd : beforeBase(ancestor);
            }
            if (descendant.equals(base)) {
                return pa == null && beforeBase(ancestor);
            }
        }
        return pairs.computeIfAbsent(ancestor.name() + descendant.name(), k -> walk(ancestor, descendant));
    }

    private boolean beforeBase(ObjectId ancestor) {
        if (base == null) {
            return false;
        }
        return ancestor.equals(base) || beforeBase.computeIfAbsent(ancestor.copy(), a -> walk(a, base));
    }

    private synchronized boolean walk(ObjectId ancestor, ObjectId descendant) {
        try (RevWalk w = new RevWalk(repo)) {
            return w.isMergedInto(w.parseCommit(ancestor), w.parseCommit(descendant));
        } catch (org.eclipse.jgit.errors.MissingObjectException
                | org.eclipse.jgit.errors.IncorrectObjectTypeException e) {
            return false;
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot test ancestry of " + ancestor.name(), e);
        }
    }
}
