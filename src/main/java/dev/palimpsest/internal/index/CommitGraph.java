package dev.palimpsest.internal.index;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The first-parent forest of indexed commits, cut into chains: a commit whose first parent is the
 * tip of a chain extends it, any other starts a new chain forking there. A commit's state equals its
 * first parent's plus its own first-parent diff, so the state of a fact at C is set by the nearest
 * event on C's chain at or before C's position, else on the chain it forked from, and so on: a
 * binary search per chain, and on linear history exactly one. Not thread-safe (guarded by the index).
 */
final class CommitGraph {
    record Node(int chain, int pos) {}

    private record Chain(int parent, int forkPos, ObjectId tipCommit, int length) {}

    private final Map<ObjectId, Node> nodes = new HashMap<>();
    private final List<Chain> chains = new ArrayList<>();

    Node node(ObjectId commit) {
        return nodes.get(commit);
    }

    boolean contains(ObjectId commit) {
        return nodes.containsKey(commit);
    }

    int size() {
        return nodes.size();
    }

    /** Adds a commit whose first parent (null for a root) is already in the graph. */
    Node add(ObjectId commit, ObjectId firstParent) {
        Node n;
        if (firstParent == null) {
            chains.add(new Chain(-1, -1, commit, 1));
            n = new Node(chains.size() - 1, 0);
        } else {
            Node p = nodes.get(firstParent);
            Chain c = chains.get(p.chain());
            if (c.length() == p.pos() + 1) {
                chains.set(p.chain(), new Chain(c.parent(), c.forkPos(), commit, c.length() + 1));
                n = new Node(p.chain(), p.pos() + 1);
            } else {
                chains.add(new Chain(p.chain(), p.pos(), commit, 1));
                n = new Node(chains.size() - 1, 0);
            }
        }
        nodes.put(commit.copy(), n);
        return n;
    }

    /** The tip commit of every chain. */
    List<ObjectId> tips() {
        List<ObjectId> out = new ArrayList<>(chains.size());
        for (Chain c : chains) {
            out.add(c.tipCommit());
        }
        return out;
    }

    /** The chain a chain forked from, or -1. */
    int parentChain(int chain) {
        return chains.get(chain).parent();
    }

    /** The position in the parent chain at which {@code chain} forked. */
    int forkPos(int chain) {
        return chains.get(chain).forkPos();
    }
}
