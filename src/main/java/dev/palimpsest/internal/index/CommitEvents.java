package dev.palimpsest.internal.index;

import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.CanonicalFacts;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Ref;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.AndTreeFilter;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/**
 * Computes one commit's fact events (versions written, facts removed) for the
 * {@link PredicateIndex}: from the diff of its tree against its first parent's, or, for a commit
 * this process wrote, from the changes the writer made. Earlier states come from the index through
 * {@code state}. Not thread-safe (used under the index's lock).
 */
final class CommitEvents {
    private final GitRepo repo;
    private final BiFunction<FactId, ObjectId, FactState> state;

    CommitEvents(GitRepo repo, BiFunction<FactId, ObjectId, FactState> state) {
        this.repo = repo;
        this.state = state;
    }

    /** The events of {@code c} (parsed by {@code walk}), from the diff of its tree against its first parent's. */
    IndexLog.Entry of(ObjectReader reader, RevWalk walk, RevCommit c) throws IOException {
        RevCommit first = c.getParentCount() > 0 ? c.getParent(0) : null;
        if (first != null) {
            walk.parseHeaders(first);
        }
        Map<String, FactEvent> events = new LinkedHashMap<>();
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.setRecursive(true);
            tw.setFilter(AndTreeFilter.create(PathFilterGroup.createFromStrings(StorePaths.FACT_FOLDERS),
                    TreeFilter.ANY_DIFF));
            if (first == null) {
                tw.addTree(new EmptyTreeIterator());
            } else {
                tw.addTree(first.getTree());
            }
            tw.addTree(c.getTree());
            while (tw.next()) {
                FactId id = StorePaths.idFromPath(tw.getPathString());
                if (id == null) {
                    continue;
                }
                boolean present = (tw.getRawMode(1) & FileMode.TYPE_MASK) == FileMode.TYPE_FILE;
                if (present) {
                    events.put(id.value(), written(reader, walk, c, id, tw.getObjectId(1)));
                } else if (!events.containsKey(id.value())) {
                    events.put(id.value(), removed(reader, c, first, id, tw.getObjectId(0)));
                }
            }
        }
        return new IndexLog.Entry(c.copy(), first == null ? null : first.copy(), events);
    }

    /**
     * The events of the single-parent commit {@code c} from {@code known}, the paths it changed
     * against its parent as someone already diffed them (the audit of a pull), so no tree is walked;
     * the same events {@link #of} finds. Returns null when {@code known} lacks {@code c}.
     */
    IndexLog.Entry ofKnown(ObjectReader reader, RevCommit c, KnownChanges known) throws IOException {
        Map<String, KnownChanges.Change> changes = c.getParentCount() == 1 ? known.changes(c) : null;
        if (changes == null) {
            return null;
        }
        RevCommit first = c.getParent(0);
        List<String> paths = new ArrayList<>();
        for (String path : changes.keySet()) {
            if (inFactFolder(path)) {
                paths.add(path);
            }
        }
        paths.sort(null);
        Map<String, FactEvent> events = new LinkedHashMap<>();
        for (String path : paths) {
            FactId id = StorePaths.idFromPath(path);
            if (id == null) {
                continue;
            }
            KnownChanges.Change ch = changes.get(path);
            if (ch.newBlob() != null) {
                Fact f = known.fact(ch.newBlob());
                events.put(id.value(), f != null ? written(f, c.copy(), c.copy(), ch.newBlob())
                        : written(reader, c.copy(), c.copy(), id, ch.newBlob()));
            } else if (!events.containsKey(id.value())) {
                events.put(id.value(), removed(reader, c, first, id, ch.oldBlob()));
            }
        }
        return new IndexLog.Entry(c.copy(), first.copy(), events);
    }

    /**
     * A removal: the version removed is the first parent's, unless a merge took the removal from
     * another parent (that parent does not have the file), whose retraction is then the one taken.
     * The removed version stays navigable only when {@code c}'s tree holds the retraction record.
     */
    private FactEvent removed(ObjectReader reader, RevCommit c, RevCommit first, FactId id, ObjectId oldBlob)
            throws IOException {
        for (int i = 1; i < c.getParentCount(); i++) {
            FactState other = state.apply(id, c.getParent(i));
            if (other != null && !other.live()) {
                return new FactEvent(other.changedAt().copy(), false, other.versionCommit().copy(),
                        other.blob().copy(), other.kind(), other.refs(), other.navigable(), other.validFrom(),
                        other.validUntil());
            }
        }
        boolean recorded = hasRecord(reader, c, id);
        FactState before = first == null ? null : state.apply(id, first);
        if (before == null) {
            return new FactEvent(c.copy(), false, first == null ? null : first.copy(), oldBlob.copy(), null, List.of(),
                    recorded);
        }
        return new FactEvent(c.copy(), false, before.versionCommit(), before.blob(), before.kind(), before.refs(),
                recorded, before.validFrom(), before.validUntil());
    }

    private static boolean hasRecord(ObjectReader reader, RevCommit c, FactId id) throws IOException {
        try (TreeWalk tw = TreeWalk.forPath(reader, StorePaths.retractionPath(id), c.getTree())) {
            return tw != null && (tw.getRawMode(0) & FileMode.TYPE_MASK) == FileMode.TYPE_FILE;
        }
    }

    /**
     * The events of {@code commit}, written on top of the indexed {@code parent} with exactly the
     * path changes {@code changes} (path to new blob, null for a removal): what a diff would find,
     * without diffing. Files whose fact is in {@code decoded} (by path) are not read back. A write of the blob a live fact already has at that path is no change; a
     * removal of a fact that is not live is none either.
     */
    IndexLog.Entry ofOwnCommit(ObjectId commit, ObjectId parent, Map<String, ObjectId> changes,
            Map<String, Fact> decoded) {
        List<String> paths = new ArrayList<>();
        for (String path : changes.keySet()) {
            if (inFactFolder(path)) {
                paths.add(path);
            }
        }
        paths.sort(null);
        Map<String, FactEvent> events = new LinkedHashMap<>();
        ObjectId self = commit.copy();
        try (ObjectReader reader = repo.newReader()) {
            for (String path : paths) {
                FactId id = StorePaths.idFromPath(path);
                if (id == null) {
                    continue;
                }
                ObjectId blob = changes.get(path);
                FactState before = state.apply(id, parent);
                boolean live = before != null && before.live();
                if (blob != null) {
                    if (!(live && before.blob().equals(blob) && path.equals(livePath(before, id)))) {
                        Fact known = decoded.get(path);
                        events.put(id.value(), known != null ? written(known, self, self, blob)
                                : written(reader, self, self, id, blob));
                    }
                } else if (live && !events.containsKey(id.value())) {
                    events.put(id.value(), new FactEvent(self, false, before.versionCommit(), before.blob(),
                            before.kind(), before.refs(), changes.get(StorePaths.retractionPathOf(path)) != null,
                            before.validFrom(), before.validUntil()));
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot index " + commit.name(), e);
        }
        return new IndexLog.Entry(self, parent.copy(), events);
    }

    private static boolean inFactFolder(String path) {
        for (String f : StorePaths.FACT_FOLDERS) {
            if (path.startsWith(f) && path.length() > f.length() && path.charAt(f.length()) == '/') {
                return true;
            }
        }
        return false;
    }

    private static String livePath(FactState s, FactId id) {
        return s.kind() == null ? null : StorePaths.factPath(dev.palimpsest.model.Kind.of(s.kind()), id);
    }


    private FactEvent written(ObjectReader reader, RevWalk walk, RevCommit c, FactId id, ObjectId blob)
            throws IOException {
        ObjectId version = c;
        for (int i = 1; i < c.getParentCount(); i++) {
            FactState other = state.apply(id, c.getParent(i));
            if (other != null && other.live() && other.blob().equals(blob)) {
                version = other.versionCommit();
                break;
            }
        }
        return written(reader, c.copy(), version.copy(), id, blob);
    }

    /** A new version: the file's kind and refs, read from its blob. */
    private FactEvent written(ObjectReader reader, ObjectId commit, ObjectId version, FactId id, ObjectId blob)
            throws IOException {
        try {
            return written(CanonicalFacts.fact(reader.open(blob).getCachedBytes(Snapshot.MAX_READ), id.value()),
                    commit, version, blob);
        } catch (FormatException | org.eclipse.jgit.errors.LargeObjectException e) {
            // a malformed or oversize file is still a version; the audit reports it
            return new FactEvent(commit, true, version, blob.copy(), null, List.of());
        }
    }

    /** A new version whose file holds {@code f}'s canonical encoding. */
    private static FactEvent written(Fact f, ObjectId commit, ObjectId version, ObjectId blob) {
        List<RefPin> refs = new ArrayList<>(f.refs().size());
        for (Ref r : f.refs()) {
            refs.add(new RefPin(r.id().value(), r.role().value(),
                    r.commit() == null ? null : ObjectId.fromString(r.commit().hex()),
                    r.blob() == null ? null : ObjectId.fromString(r.blob().hex())));
        }
        long[] valid = FactEvent.bounds(f.validity());
        return new FactEvent(commit, true, version, blob.copy(), f.kind().value(), refs, true, valid[0], valid[1]);
    }
}
