package dev.palimpsest.internal.receipts;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.query.FactCache;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.StoreConfig;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.Sentence;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;

/**
 * Every receipt of the facts in one commit's tree, as dense arrays for set arithmetic: nodes
 * (facts, sources, assertions, artifacts, retracted ids and receipt members), units (one receipt:
 * an artifact's, or one summary sentence's), bundles with their members, and the inverted index
 * from each node to the bundles that name it. Built once per commit; immutable afterwards and
 * safe to share between threads.
 */
public final class ReceiptGraph {
    static final byte OTHER = 0;
    static final byte SOURCE = 1;
    static final byte ASSERTION = 2;
    static final byte MERGE = 3;
    static final byte EDGE = 4;
    static final byte SUMMARY = 5;
    static final String[] LAYER = {"other", "source", "assertion", "merge", "edge", "summary"};

    final ObjectId commit;

    public ObjectId commit() {
        return commit;
    }

    public StoreConfig config() {
        return config;
    }

    final StoreConfig config;
    final List<FactId> ids = new ArrayList<>();
    final Map<FactId, Integer> nodeOf = new HashMap<>();
    byte[] kind = new byte[1024];
    boolean[] live = new boolean[1024];
    Fact[] facts = new Fact[1024];
    int[] sourceOf;
    int[] unitOwner;
    int[] unitSentence;
    int[] bundleStart;
    int[] bundleUnit;
    int[] memberStart;
    int[] members;
    int[] memberOfStart;
    int[] memberOf;
    int[] firstUnit;
    int[] unitFirstBundle;
    int[] sentenceCount;
    boolean[] flat;

    private ReceiptGraph(ObjectId commit, StoreConfig config) {
        this.commit = commit;
        this.config = config;
    }

    /** Loads the graph of {@code commit}: a tree walk, each fact file decoded once (cached by blob). */
    public static ReceiptGraph load(GitRepo repo, PredicateIndex index, ObjectId commit, FactCache cache) {
        try (ObjectReader reader = repo.newReader(); RevWalk walk = new RevWalk(reader)) {
            var c = walk.parseCommit(commit);
            ObjectId cfgBlob;
            try (TreeWalk cw = TreeWalk.forPath(reader, StorePaths.CONFIG, c.getTree())) {
                cfgBlob = cw == null ? null : cw.getObjectId(0);
            }
            StoreConfig config = cfgBlob == null ? StoreConfig.current()
                    : FactCodec.decodeConfig(reader.open(cfgBlob).getCachedBytes(), StorePaths.CONFIG);
            ReceiptGraph g = new ReceiptGraph(commit.copy(), config);
            List<FactId> retracted = new ArrayList<>();
            try (TreeWalk tw = new TreeWalk(reader)) {
                tw.setRecursive(true);
                tw.addTree(c.getTree());
                tw.setFilter(PathFilterGroup.createFromStrings(StorePaths.SOURCES, StorePaths.ASSERTIONS,
                        StorePaths.ARTIFACTS, StorePaths.FACTS, StorePaths.RETRACTIONS));
                while (tw.next()) {
                    String path = tw.getPathString();
                    FactId id = StorePaths.idFromPath(path);
                    if (id == null) {
                        continue;
                    }
                    String folder = path.substring(0, path.indexOf('/'));
                    if (folder.equals(StorePaths.RETRACTIONS)) {
                        retracted.add(id);
                        continue;
                    }
                    int n = g.node(id);
                    g.live[n] = true;
                    if (folder.equals(StorePaths.SOURCES)) {
                        g.kind[n] = SOURCE;
                    } else if (folder.equals(StorePaths.ASSERTIONS) || folder.equals(StorePaths.ARTIFACTS)) {
                        Fact f = cache.get(reader, tw.getObjectId(0));
                        g.facts[n] = f;
                        g.kind[n] = f == null ? OTHER : code(f.kind());
                    }
                }
            }
            for (FactId id : retracted) {
                int n = g.node(id);
                if (!g.live[n]) {
                    FactState st = index.state(id, commit);
                    g.kind[n] = st == null || st.kind() == null ? OTHER : code(Kind.of(st.kind()));
                }
            }
            g.build();
            return g;
        } catch (IOException | FormatException e) {
            throw new PalimpsestInternalException("cannot load receipts at " + commit.name() + ": " + e.getMessage(), e);
        }
    }

    static byte code(Kind k) {
        if (Kind.SOURCE.equals(k)) {
            return SOURCE;
        }
        if (Kind.ASSERTION.equals(k)) {
            return ASSERTION;
        }
        if (Kind.MERGE.equals(k)) {
            return MERGE;
        }
        if (Kind.EDGE.equals(k)) {
            return EDGE;
        }
        return Kind.SUMMARY.equals(k) ? SUMMARY : OTHER;
    }

    int node(FactId id) {
        Integer n = nodeOf.get(id);
        if (n != null) {
            return n;
        }
        int i = ids.size();
        ids.add(id);
        nodeOf.put(id, i);
        if (i == kind.length) {
            kind = java.util.Arrays.copyOf(kind, i * 2);
            live = java.util.Arrays.copyOf(live, i * 2);
            facts = java.util.Arrays.copyOf(facts, i * 2);
        }
        return i;
    }

    public int size() {
        return ids.size();
    }

    public int units() {
        return unitOwner.length;
    }

    public int bundles() {
        return bundleUnit.length;
    }

    public FactId id(int n) {
        return ids.get(n);
    }

    /** The decoded file of node {@code n} (assertions and artifacts only; null otherwise). */
    public Fact fact(int n) {
        return facts[n];
    }

    /** True when node {@code n}'s file is in this commit's tree. */
    public boolean isLive(int n) {
        return live[n];
    }

    /** The node of {@code id}, or -1 when nothing in this commit's tree or receipts names it. */
    public int find(FactId id) {
        Integer n = nodeOf.get(id);
        return n == null ? -1 : n;
    }

    private void build() {
        int factCount = ids.size();
        IntList uOwner = new IntList();
        IntList uSentence = new IntList();
        IntList uBundle = new IntList();
        IntList bStart = new IntList();
        IntList bUnit = new IntList();
        IntList mem = new IntList();
        int[] first = new int[factCount + 1];
        int[] sentences = new int[factCount];
        boolean[] isFlat = new boolean[factCount];
        int[] source = new int[factCount];
        java.util.Arrays.fill(source, -1);
        for (int n = 0; n < factCount; n++) {
            first[n] = uOwner.size();
            Fact f = facts[n];
            if (f == null) {
                continue;
            }
            if (kind[n] == ASSERTION) {
                for (Ref r : f.refs()) {
                    if (RefRole.SOURCE.equals(r.role())) {
                        source[n] = node(r.id());
                    }
                }
            }
            if (f.grounding().receipt() != null) {
                isFlat[n] = f.grounding().flat();
                addUnit(n, -1, f.grounding().receipt(), uOwner, uSentence, uBundle, bStart, bUnit, mem);
            }
            List<Sentence> ss = f.grounding().sentences();
            sentences[n] = ss.size();
            for (int i = 0; i < ss.size(); i++) {
                addUnit(n, i, ss.get(i).receipt(), uOwner, uSentence, uBundle, bStart, bUnit, mem);
            }
        }
        first[factCount] = uOwner.size();
        int total = ids.size(); // node() keeps kind, live and facts longer than ids
        firstUnit = java.util.Arrays.copyOf(first, total + 1);
        for (int n = factCount + 1; n <= total; n++) {
            firstUnit[n] = uOwner.size();
        }
        sentenceCount = java.util.Arrays.copyOf(sentences, total);
        flat = java.util.Arrays.copyOf(isFlat, total);
        sourceOf = java.util.Arrays.copyOf(source, total);
        for (int n = factCount; n < total; n++) {
            sourceOf[n] = -1;
        }
        unitOwner = uOwner.toArray();
        unitSentence = uSentence.toArray();
        bStart.add(mem.size());
        bundleStart = bStart.toArray();
        bundleUnit = bUnit.toArray();
        members = mem.toArray();
        uBundle.add(bundleUnit.length);
        unitFirstBundle = uBundle.toArray();
        int[] count = new int[total + 1];
        for (int m : members) {
            count[m + 1]++;
        }
        for (int i = 0; i < total; i++) {
            count[i + 1] += count[i];
        }
        memberOfStart = count.clone();
        memberOf = new int[members.length];
        int[] fill = java.util.Arrays.copyOf(count, total);
        for (int b = 0; b < bundleUnit.length; b++) {
            for (int i = bundleStart[b]; i < bundleStart[b + 1]; i++) {
                memberOf[fill[members[i]]++] = b;
            }
        }
    }

    private void addUnit(int owner, int sentence, Receipt r, IntList uOwner, IntList uSentence, IntList uBundle,
            IntList bStart, IntList bUnit, IntList mem) {
        int u = uOwner.size();
        uOwner.add(owner);
        uSentence.add(sentence);
        uBundle.add(bUnit.size());
        for (List<Pin> bundle : r.bundles()) {
            bStart.add(mem.size());
            bUnit.add(u);
            for (Pin p : bundle) {
                mem.add(node(p.id()));
            }
        }
    }

    /** A growable int array. */
    static final class IntList {
        private int[] a = new int[256];
        private int n;

        void add(int v) {
            if (n == a.length) {
                a = java.util.Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }

        int size() {
            return n;
        }

        int get(int i) {
            return a[i];
        }

        int[] toArray() {
            return java.util.Arrays.copyOf(a, n);
        }
    }
}
