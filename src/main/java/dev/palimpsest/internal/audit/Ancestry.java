package dev.palimpsest.internal.audit;

import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.ObjectId;
import java.util.function.Supplier;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Ancestor-or-self questions about the audited commits, which are added oldest first (every
 * parent in the range before its children). While they form one chain from the first (every
 * commit's only parent is the one added before it), a commit inside that chain is answered by
 * position and one before it by a cached walk from the chain's base (the first commit's parent);
 * anything else by a cached, serialised walk. Commits may be added while questions are asked.
 * Thread-safe.
 */
final class Ancestry {
    private final Map<ObjectId, Integer> position = new ConcurrentHashMap<>();
    /** The last position of the chain from the first commit; -1 while there is none. */
    private volatile int chainEnd = -1;
    private boolean chainBroken;
    private int size;
    private ObjectId last;
    private volatile ObjectId base;
    private final Supplier<ObjectReader> readers;
    private final Map<ObjectId, Boolean> beforeBase = new ConcurrentHashMap<>();
    private final Map<String, Boolean> pairs = new ConcurrentHashMap<>();

    /** Walks read through readers from {@code readers} (each closed after its walk). */
    Ancestry(Supplier<ObjectReader> readers) {
        this.readers = readers;
    }

    /** {@code chain} oldest first, each commit with its parents. */
    Ancestry(Supplier<ObjectReader> readers, List<AuditEngine.Node> chain) {
        this(readers);
        chain.forEach(this::add);
    }

    /** Adds a commit, after every parent of it that is audited too. */
    synchronized void add(AuditEngine.Node n) {
        int i = size++;
        position.put(n.id(), i);
        if (i == 0) {
            base = n.parents().isEmpty() ? null : n.parents().get(0);
            chainBroken = n.parents().size() > 1;
        } else {
            chainBroken |= n.parents().size() != 1 || !n.parents().get(0).equals(last);
        }
        if (!chainBroken) {
            chainEnd = i;
        }
        last = n.id();
    }

    /** True when {@code ancestor} is {@code descendant} or one of its ancestors. */
    boolean isAncestorOrSelf(ObjectId ancestor, ObjectId descendant) {
        if (ancestor.equals(descendant)) {
            return true;
        }
        int end = chainEnd;
        Integer pd = position.get(descendant);
        Integer pa = position.get(ancestor);
        boolean ancestorInChain = pa != null && pa <= end;
        if (pd != null && pd <= end) {
            return ancestorInChain ? pa <= pd : beforeBase(ancestor);
        }
        if (end >= 0 && descendant.equals(base)) {
            return !ancestorInChain && beforeBase(ancestor);
        }
        return pairs.computeIfAbsent(ancestor.name() + descendant.name(), k -> walk(ancestor, descendant));
    }

    private boolean beforeBase(ObjectId ancestor) {
        ObjectId base = this.base;
        if (base == null) {
            return false;
        }
        return ancestor.equals(base) || beforeBase.computeIfAbsent(ancestor.copy(), a -> walk(a, base));
    }

    private synchronized boolean walk(ObjectId ancestor, ObjectId descendant) {
        try (ObjectReader reader = readers.get(); RevWalk w = new RevWalk(reader)) {
            return w.isMergedInto(w.parseCommit(ancestor), w.parseCommit(descendant));
        } catch (org.eclipse.jgit.errors.MissingObjectException
                | org.eclipse.jgit.errors.IncorrectObjectTypeException e) {
            return false;
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot test ancestry of " + ancestor.name(), e);
        }
    }
}
