package dev.palimpsest.internal.receipts;

import java.util.Arrays;
import java.util.BitSet;
import dev.palimpsest.model.TrustPolicy;

/**
 * Which nodes of a {@link ReceiptGraph} are alive, by propagation from the dead set: a bundle dies
 * when any member dies, a unit (receipt) when all its bundles died, an artifact when its receipt
 * died; a sentence summary when every sentence died; a flat summary, under the distrust policy,
 * as soon as any bundle is hit; an artifact of a layer whose receipts the store distrusts, as soon as
 * any of its bundles is hit. Set arithmetic only: bitsets and counters, a worklist, no I/O.
 * Not thread-safe; {@link #copy()} before planning on a shared baseline.
 */
public final class Liveness {
    final ReceiptGraph g;
    final BitSet dead;
    final BitSet deadBundle;
    final BitSet touched;
    final int[] unitAlive;
    final int[] deadSentences;
    final TrustPolicy policy;
    private final boolean distrust;
    private final boolean[] distrustKind;
    private int[] stack = new int[64];

    private Liveness(ReceiptGraph g, BitSet dead, BitSet deadBundle, BitSet touched, int[] unitAlive,
            int[] deadSentences, TrustPolicy policy) {
        this.g = g;
        this.dead = dead;
        this.deadBundle = deadBundle;
        this.touched = touched;
        this.unitAlive = unitAlive;
        this.deadSentences = deadSentences;
        this.policy = policy;
        this.distrust = policy.flat() == dev.palimpsest.model.Policy.DISTRUST;
        this.distrustKind = new boolean[ReceiptGraph.LAYER.length];
        for (byte k = ReceiptGraph.MERGE; k <= ReceiptGraph.SUMMARY; k++) {
            distrustKind[k] = policy.distrusts(dev.palimpsest.model.Layer.parse(ReceiptGraph.LAYER[k]));
        }
    }

    /** The trust policy of the graph's commit, as written in its {@code palimpsest.yaml}. */
    public static TrustPolicy policyOf(ReceiptGraph g) {
        java.util.Set<dev.palimpsest.model.Layer> d = java.util.EnumSet.noneOf(dev.palimpsest.model.Layer.class);
        g.config.distrustLayers().forEach(l -> d.add(dev.palimpsest.model.Layer.parse(l)));
        return new TrustPolicy(g.config.distrustFlat() ? dev.palimpsest.model.Policy.DISTRUST
                : dev.palimpsest.model.Policy.TRUST, d);
    }

    /** Liveness at the graph's commit under its own trust policy. */
    public static Liveness at(ReceiptGraph g) {
        return at(g, policyOf(g));
    }

    /** Liveness at the graph's commit under {@code policy}: every node whose file is not in the tree is dead, and what follows. */
    public static Liveness at(ReceiptGraph g, TrustPolicy policy) {
        int[] unitAlive = new int[g.unitOwner.length];
        for (int u : g.bundleUnit) {
            unitAlive[u]++;
        }
        Liveness l = new Liveness(g, new BitSet(g.size()), new BitSet(g.bundleUnit.length), new BitSet(g.size()),
                unitAlive, new int[g.size()], policy);
        int[] roots = new int[g.size()];
        int k = 0;
        for (int n = 0; n < g.size(); n++) {
            if (!g.live[n]) {
                roots[k++] = n;
            }
        }
        l.kill(roots, k);
        return l;
    }

    public Liveness copy() {
        return new Liveness(g, (BitSet) dead.clone(), (BitSet) deadBundle.clone(), (BitSet) touched.clone(),
                unitAlive.clone(), deadSentences.clone(), policy);
    }

    /** Kills the first {@code count} of {@code roots} and propagates. */
    public void kill(int[] roots, int count) {
        int top = 0;
        for (int i = 0; i < count; i++) {
            int r = roots[i];
            if (!dead.get(r)) {
                dead.set(r);
                top = push(top, r);
            }
        }
        while (top > 0) {
            int n = stack[--top];
            for (int i = g.memberOfStart[n]; i < g.memberOfStart[n + 1]; i++) {
                int b = g.memberOf[i];
                if (deadBundle.get(b)) {
                    continue;
                }
                deadBundle.set(b);
                int u = g.bundleUnit[b];
                int owner = g.unitOwner[u];
                touched.set(owner);
                boolean dies;
                if (--unitAlive[u] == 0) {
                    dies = g.unitSentence[u] < 0 || ++deadSentences[owner] == g.sentenceCount[owner];
                } else {
                    dies = distrust && g.flat[owner];
                }
                dies |= distrustKind[g.kind[owner]];
                if (dies && !dead.get(owner)) {
                    dead.set(owner);
                    top = push(top, owner);
                }
            }
        }
    }

    private int push(int top, int n) {
        if (top == stack.length) {
            stack = Arrays.copyOf(stack, top * 2);
        }
        stack[top] = n;
        return top + 1;
    }

    public boolean alive(int n) {
        return !dead.get(n);
    }

    /** True for a live sentence summary with some dead sentences and some alive ones. */
    boolean partlyDead(int n) {
        return !dead.get(n) && deadSentences[n] > 0;
    }

    /** True when sentence {@code sentence} of summary node {@code n} has no live bundle (false for any other node). */
    public boolean sentenceDead(int n, int sentence) {
        for (int u = g.firstUnit[n]; u < g.firstUnit[n + 1]; u++) {
            if (g.unitSentence[u] == sentence) {
                return unitDead(u);
            }
        }
        return false;
    }

    /** True when the unit (a receipt or a sentence's receipt) has no live bundle. */
    boolean unitDead(int u) {
        return unitAlive[u] == 0;
    }
}
