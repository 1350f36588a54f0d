package dev.palimpsest.internal.merge;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.rules.GroundingRules;
import dev.palimpsest.internal.yaml.CanonicalFacts;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.KeyCodec;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * Settles, on the merged tree, the conflicts between facts (or keys) that neither side could see:
 * each is decided by the same (committer time, commit id) order of versions the unit merge uses, so
 * the result stays a function of the two histories, and each is named by one
 * {@code Palimpsest-Settled} trailer. In order:
 * <ol>
 * <li>{@code key-in-use}: one key fingerprint trusted under two actor names that came in from the
 * two sides: the later addition is dropped (its unit takes the other side's state);
 * <li>{@code last-key}: the merge would remove every key while each tip holds one (two
 * revocations that together revoke every key): the key whose revocation is the latest is kept;
 * <li>{@code receipt-cycle}: the artifacts' receipts form a cycle through units the sides changed:
 * the latest changed version on the cycle is dropped (its unit takes the other side's state),
 * repeatedly, until no cycle is left;
 * <li>{@code superseded-twice}: two live facts that came in from the two sides supersede one
 * fact: both stay; the later supersession wins, the earlier is named (a review item).
 * </ol>
 * Not thread-safe (one merge).
 */
final class MergeSettle {
    private final ObjectReader reader;
    private final RevCommit a;
    private final ConvergentMerge.Versions versions;
    private final List<ConvergentMerge.Decision> decisions;
    private final Map<String, ConvergentMerge.Decision> byUnit = new HashMap<>();
    private final List<String> settled = new ArrayList<>();

    MergeSettle(ObjectReader reader, RevCommit a, ConvergentMerge.Versions versions,
            List<ConvergentMerge.Decision> decisions) {
        this.reader = reader;
        this.a = a;
        this.versions = versions;
        this.decisions = decisions;
        for (ConvergentMerge.Decision d : decisions) {
            byUnit.put(d.unit.type() + ":" + d.unit.name(), d);
        }
    }

    /** Applies the settlements to the decisions; returns their trailer values, sorted. */
    List<String> settle() throws IOException {
        keysInUse();
        lastKey();
        cycles();
        supersessions();
        settled.sort(null);
        return List.copyOf(settled);
    }

    private void keysInUse() throws IOException {
        Map<String, List<String>> holders = new TreeMap<>();
        for (Map.Entry<String, ObjectId> e : mergedKeys().entrySet()) {
            String fp = fingerprint(e.getValue());
            if (fp != null) {
                holders.computeIfAbsent(fp, k -> new ArrayList<>()).add(e.getKey());
            }
        }
        for (List<String> actors : holders.values()) {
            if (actors.size() < 2) {
                continue;
            }
            List<ConvergentMerge.Decision> added = new ArrayList<>();
            String kept = null;
            for (String actor : actors) {
                ConvergentMerge.Decision d = byUnit.get(ConvergentMerge.Type.KEY + ":" + actor);
                if (d == null) {
                    kept = actor;
                } else {
                    added.add(d);
                }
            }
            added.sort(Comparator.comparing(this::keyVersion).thenComparing(d -> d.unit.name()));
            int keep = kept == null ? 1 : 0;
            if (kept == null) {
                kept = added.get(0).unit.name();
            }
            for (ConvergentMerge.Decision d : added.subList(keep, added.size())) {
                d.chosen = d.other();
                settled.add("key-in-use " + d.unit.name() + " " + kept);
            }
        }
    }

    private ConvergentMerge.Versions.Version keyVersion(ConvergentMerge.Decision d) {
        String asc = d.unit.paths().get(0);
        try {
            return versions.of(d.chosen.commit(), new ConvergentMerge.Key(asc, d.chosen.blobs().get(asc)));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void lastKey() throws IOException {
        if (!mergedKeys().isEmpty() || !holdsKey(d -> d.a) || !holdsKey(d -> d.b)) {
            return; // keys remain, or one side alone holds none: not a conflict the merge made
        }
        Map<ConvergentMerge.Decision, ConvergentMerge.Versions.Version> removals = new LinkedHashMap<>();
        for (ConvergentMerge.Decision d : decisions) {
            String asc = d.unit.paths().get(0);
            if (d.unit.type() == ConvergentMerge.Type.KEY && d.other().blobs().containsKey(asc)) {
                removals.put(d, versions.removal(d.chosen.commit(), asc));
            }
        }
        if (removals.isEmpty()) {
            return; // a tip's key file without its record: no revocation to undo
        }
        ConvergentMerge.Decision best = Collections.max(removals.keySet(),
                Comparator.comparing((ConvergentMerge.Decision d) -> removals.get(d)).thenComparing(d -> d.unit.name()));
        best.chosen = best.other();
        settled.add("last-key " + best.unit.name());
    }

    /**
     * True when the tip whose side {@code tip} picks holds a key; called when the merged tree holds
     * none, so every key either tip holds is in a changed unit.
     */
    private boolean holdsKey(java.util.function.Function<ConvergentMerge.Decision, ConvergentMerge.Side> tip) {
        for (ConvergentMerge.Decision d : decisions) {
            if (d.unit.type() == ConvergentMerge.Type.KEY
                    && tip.apply(d).blobs().containsKey(d.unit.paths().get(0))) {
                return true;
            }
        }
        return false;
    }

    /** Actor name to the blob of its key record, in the merged tree. */
    private Map<String, ObjectId> mergedKeys() throws IOException {
        Map<String, ObjectId> out = new TreeMap<>();
        try (TreeWalk tw = TreeWalk.forPath(reader, StorePaths.KEYS, a.getTree())) {
            if (tw != null && tw.isSubtree()) {
                try (TreeWalk keys = new TreeWalk(reader)) {
                    keys.addTree(tw.getObjectId(0));
                    while (keys.next()) {
                        String name = keys.getNameString();
                        if (name.endsWith(".yaml") && !byUnit.containsKey(ConvergentMerge.Type.KEY + ":"
                                + name.substring(0, name.length() - 5))) {
                            out.put(name.substring(0, name.length() - 5), keys.getObjectId(0));
                        }
                    }
                }
            }
        }
        for (ConvergentMerge.Decision d : decisions) {
            ObjectId record = d.unit.type() == ConvergentMerge.Type.KEY ? d.chosen.blobs().get(d.unit.paths().get(1))
                    : null;
            if (record != null && d.chosen.blobs().containsKey(d.unit.paths().get(0))) {
                out.put(d.unit.name(), record);
            }
        }
        return out;
    }

    private String fingerprint(ObjectId record) throws IOException {
        try {
            ActorKey k = KeyCodec.decode(reader.open(record, Constants.OBJ_BLOB).getCachedBytes(1 << 16), "key record");
            return k.fingerprint();
        } catch (FormatException | IllegalArgumentException | org.eclipse.jgit.errors.LargeObjectException e) {
            return null;
        }
    }

    private void cycles() throws IOException {
        for (int round = 0; round <= decisions.size(); round++) {
            ConvergentMerge.Decision drop = findDrop();
            if (drop == null) {
                return;
            }
            ObjectId dropped = versions.commitOf(drop.chosen.commit(), ConvergentMerge.firstLive(drop.unit, drop.chosen));
            drop.chosen = drop.other();
            ObjectId kept = versions.commitOf(drop.chosen.commit(), ConvergentMerge.firstLive(drop.unit, drop.chosen));
            settled.add("receipt-cycle " + drop.unit.name() + " " + dropped.name() + " " + kept.name());
        }
    }

    /**
     * The change to drop on a cycle of receipt dependencies reached from a changed artifact (smallest
     * start id first): the latest changed version on it, of equal ones the first; or null.
     */
    private ConvergentMerge.Decision findDrop() throws IOException {
        List<FactId> starts = new ArrayList<>();
        for (ConvergentMerge.Decision d : decisions) {
            if (d.unit.type() == ConvergentMerge.Type.FACT && ConvergentMerge.live(d.unit, d.chosen)
                    && ConvergentMerge.firstLive(d.unit, d.chosen).path().startsWith(StorePaths.ARTIFACTS + "/")) {
                starts.add(FactId.of(d.unit.name()));
            }
        }
        starts.sort(Comparator.comparing(FactId::value));
        Map<FactId, Integer> color = new HashMap<>();
        for (FactId s : starts) {
            List<FactId> path = new ArrayList<>();
            if (cycleFrom(s, color, path)) {
                return latestChange(path);
            }
        }
        return null;
    }

    private ConvergentMerge.Decision latestChange(List<FactId> cycle) throws IOException {
        List<ConvergentMerge.Decision> changed = new ArrayList<>();
        Map<ConvergentMerge.Decision, ConvergentMerge.Versions.Version> at = new HashMap<>();
        for (FactId id : cycle) {
            ConvergentMerge.Decision d = byUnit.get(ConvergentMerge.Type.FACT + ":" + id.value());
            if (d == null || d.base != null && d.base.equals(d.chosen.blobs())
                    || !ConvergentMerge.live(d.unit, d.other())) {
                continue;
            }
            changed.add(d);
            at.put(d, versions.of(d.chosen.commit(), ConvergentMerge.firstLive(d.unit, d.chosen)));
        }
        if (changed.isEmpty()) {
            return null; // a cycle neither side's change closed: not the merge's to break
        }
        return Collections.max(changed, Comparator.comparing(at::get));
    }

    private boolean cycleFrom(FactId id, Map<FactId, Integer> color, List<FactId> path) throws IOException {
        Integer c = color.get(id);
        if (c != null) {
            if (c == 1) {
                path.subList(0, path.indexOf(id)).clear();
                return true;
            }
            return false;
        }
        color.put(id, 1);
        path.add(id);
        Fact f = merged(id);
        List<FactId> members = new ArrayList<>();
        if (f != null) {
            for (Receipt r : GroundingRules.receipts(f.grounding())) {
                members.addAll(r.members());
            }
        }
        members.sort(Comparator.comparing(FactId::value));
        for (FactId m : members) {
            if (!m.equals(id) && cycleFrom(m, color, path)) {
                return true;
            }
        }
        path.remove(path.size() - 1);
        color.put(id, 2);
        return false;
    }

    private void supersessions() throws IOException {
        Map<String, List<ConvergentMerge.Decision>> byTarget = new TreeMap<>();
        for (ConvergentMerge.Decision d : decisions) {
            if (d.unit.type() != ConvergentMerge.Type.FACT || !ConvergentMerge.live(d.unit, d.chosen)) {
                continue;
            }
            Fact f = merged(FactId.of(d.unit.name()));
            if (f == null) {
                continue;
            }
            for (Ref r : f.refs()) {
                if (RefRole.SUPERSEDES.equals(r.role())) {
                    byTarget.computeIfAbsent(r.id().value(), k -> new ArrayList<>()).add(d);
                }
            }
        }
        for (Map.Entry<String, List<ConvergentMerge.Decision>> e : byTarget.entrySet()) {
            List<ConvergentMerge.Decision> by = e.getValue();
            if (by.size() < 2) {
                continue;
            }
            Map<ConvergentMerge.Decision, ConvergentMerge.Versions.Version> at = new HashMap<>();
            for (ConvergentMerge.Decision d : by) {
                at.put(d, versions.of(d.chosen.commit(), ConvergentMerge.firstLive(d.unit, d.chosen)));
            }
            ConvergentMerge.Decision win = Collections.max(by,
                    Comparator.comparing((ConvergentMerge.Decision d) -> at.get(d)).thenComparing(d -> d.unit.name()));
            for (ConvergentMerge.Decision d : by) {
                if (d != win) {
                    settled.add("superseded-twice " + e.getKey() + " " + d.unit.name() + " " + win.unit.name());
                }
            }
        }
    }

    /** The live fact {@code id} in the merged tree, or null (absent, retracted, or not decodable). */
    private Fact merged(FactId id) throws IOException {
        ConvergentMerge.Decision d = byUnit.get(ConvergentMerge.Type.FACT + ":" + id.value());
        ObjectId blob = null;
        if (d != null) {
            ConvergentMerge.Key live = ConvergentMerge.firstLive(d.unit, d.chosen);
            blob = live == null ? null : live.blob();
        } else {
            for (String p : StorePaths.candidatePaths(id)) {
                blob = ConvergentMerge.blobAt(reader, a.getTree(), p);
                if (blob != null) {
                    break;
                }
            }
        }
        if (blob == null) {
            return null;
        }
        try {
            return CanonicalFacts.fact(reader.open(blob, Constants.OBJ_BLOB).getCachedBytes(64 << 20), id.value());
        } catch (FormatException | org.eclipse.jgit.errors.LargeObjectException e) {
            return null;
        }
    }
}
