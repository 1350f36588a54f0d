package dev.palimpsest.internal.receipts;

import dev.palimpsest.model.Policy;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.query.Versions;
import dev.palimpsest.internal.write.RetractRules;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.StoreConfig;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Violation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * What planning a retraction by id needs before any receipt is read: the reference gate's own
 * retraction checks ({@link RetractRules}), and the cheap test of whether anything can rest on a
 * fact at all (receipts live only in artifacts, so a tree without an {@code artifacts/} folder has
 * none). Stateless.
 */
public final class Retractions {
    private Retractions() {}

    /**
     * The violations of retracting {@code ids} with {@code reason} at {@code at}, in the gate's order
     * (see {@code ReferenceGate.retract}): an id named twice, an empty reason, an id not live there.
     */
    public static List<Violation> violations(PredicateIndex index, Snapshot at, List<FactId> ids, String reason) {
        List<Violation> out = new ArrayList<>();
        Set<FactId> seen = new HashSet<>();
        Versions versions = new Versions(index, at);
        for (FactId id : ids) {
            boolean repeated = !seen.add(id);
            Violation v = RetractRules.check(id, reason, repeated, repeated ? null : versions.locate(id), versions);
            if (v != null) {
                out.add(v);
            }
        }
        return out;
    }

    /** True when {@code at}'s tree holds an {@code artifacts/} folder: only then can a receipt name any fact. */
    public static boolean hasArtifacts(Snapshot at) {
        try (TreeWalk tw = TreeWalk.forPath(at.reader(), StorePaths.ARTIFACTS, at.tree())) {
            return tw != null && (tw.getRawMode(0) & FileMode.TYPE_MASK) == FileMode.TYPE_TREE;
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read the tree of " + at.commit().name(), e);
        }
    }

    /** The flat-summary policy at {@code at}: {@code trust} or {@code distrust}. */
    public static Policy policy(Snapshot at) {
        byte[] cfg = at.readPath(StorePaths.CONFIG);
        try {
            StoreConfig c = cfg == null ? StoreConfig.current() : FactCodec.decodeConfig(cfg, StorePaths.CONFIG);
            return c.distrustFlat() ? Policy.DISTRUST : Policy.TRUST;
        } catch (FormatException e) {
            throw new PalimpsestInternalException("corrupt " + StorePaths.CONFIG + ": " + e.getMessage(), e);
        }
    }
}
