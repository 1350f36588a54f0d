package dev.palimpsest.internal.claims;

import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.CanonicalFacts;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.SealKeys;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
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
 * What one commit says to the claims index, as a {@link CommitRecord}: the claims it writes, the
 * supersessions it states, the facts it removes, and the config's multi-valued predicates when it
 * changes them. Read from git (the commit's diff against its first parent) or from a writer's own
 * changes. A malformed or unreadable file states nothing (the audit reports it). Stateless.
 */
final class CommitRecords {
    private CommitRecords() {}

    /** The record of {@code c}, from the diff of its tree against its first parent's. */
    static CommitRecord fromGit(ObjectReader reader, RevWalk walk, RevCommit c, SealKeys keys,
            Predicate<String> tracked) throws IOException {
        RevCommit first = c.getParentCount() > 0 ? walk.parseCommit(c.getParent(0)) : null;
        Map<String, ObjectId> changes = new TreeMap<>();
        List<String> folders = new ArrayList<>(StorePaths.FACT_FOLDERS);
        folders.add(StorePaths.CONFIG);
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.setRecursive(true);
            tw.setFilter(AndTreeFilter.create(PathFilterGroup.createFromStrings(folders), TreeFilter.ANY_DIFF));
            if (first == null) {
                tw.addTree(new EmptyTreeIterator());
            } else {
                tw.addTree(first.getTree());
            }
            tw.addTree(c.getTree());
            while (tw.next()) {
                boolean present = (tw.getRawMode(1) & FileMode.TYPE_MASK) == FileMode.TYPE_FILE;
                changes.put(tw.getPathString(), present ? tw.getObjectId(1) : null);
            }
        }
        String actor = c.getAuthorIdent() == null ? "" : c.getAuthorIdent().getName();
        return of(reader, c, first, actor, changes, Map.of(), keys, tracked);
    }

    /**
     * The record of a commit with these path changes (path to blob, null when removed); facts known
     * by path are not read back. {@code tracked} tells which ids the index holds a live version or a
     * supersession of (a removal of any other id is no event).
     */
    static CommitRecord of(ObjectReader reader, ObjectId commit, ObjectId parent, String actor,
            Map<String, ObjectId> changes, Map<String, Fact> known, SealKeys keys, Predicate<String> tracked)
            throws IOException {
        List<String> mv = null;
        List<CommitRecord.Event> events = new ArrayList<>();
        Set<String> written = new HashSet<>();
        List<String> paths = new ArrayList<>(changes.keySet());
        paths.sort(null);
        for (String path : paths) {
            ObjectId blob = changes.get(path);
            if (path.equals(StorePaths.CONFIG)) {
                if (blob != null) {
                    try {
                        mv = new ArrayList<>(FactCodec.decodeConfig(reader.open(blob).getCachedBytes(Snapshot.MAX_READ),
                                path).multiValued());
                    } catch (FormatException | RuntimeException e) {
                        mv = List.of(); // a malformed config declares nothing; the audit reports it
                    }
                }
                continue;
            }
            if (!inFactFolder(path)) {
                continue;
            }
            FactId fid = StorePaths.idFromPath(path);
            if (fid == null) {
                continue;
            }
            String id = fid.value();
            if (blob != null) {
                Fact f = known.get(path);
                if (f == null) {
                    try {
                        f = CanonicalFacts.fact(reader.open(blob).getCachedBytes(Snapshot.MAX_READ), path, keys);
                    } catch (FormatException | RuntimeException e) {
                        f = null; // a malformed file states no claim; the audit reports it
                    }
                }
                if (f != null && f.contentUnavailable()) {
                    f = null; // sealed content without its key (forgotten) states no claim
                }
                CommitRecord.Written w = f == null ? null : written(f);
                if (w != null) {
                    events.add(w);
                    written.add(id);
                } else if (tracked.test(id)) {
                    events.add(new CommitRecord.Removed(id));
                }
            } else if (!written.contains(id) && tracked.test(id)) {
                events.add(new CommitRecord.Removed(id));
            }
        }
        return new CommitRecord(commit.copy(), parent == null ? null : parent.copy(), actor, mv, events);
    }

    private static boolean inFactFolder(String path) {
        for (String f : StorePaths.FACT_FOLDERS) {
            if (path.startsWith(f) && path.length() > f.length() && path.charAt(f.length()) == '/') {
                return true;
            }
        }
        return false;
    }

    /** The event of a written fact, or null when it is no claim and supersedes nothing. */
    private static CommitRecord.Written written(Fact f) {
        List<String> sup = new ArrayList<>();
        String source = null;
        for (Ref r : f.refs()) {
            if (RefRole.SUPERSEDES.equals(r.role())) {
                sup.add(r.id().value());
            } else if (source == null && RefRole.SOURCE.equals(r.role())) {
                source = r.id().value();
            }
        }
        ClaimRecord claim = null;
        var g = f.grounding();
        if (Kind.ENTITY_CLAIM.equals(f.kind()) && g.hasTriple() && source != null) {
            claim = ClaimRecord.of(f.id().value(), g.subject(), g.predicate(), g.object(), source, f.run(),
                    f.confidence());
        }
        if (claim == null && sup.isEmpty()) {
            return null;
        }
        return new CommitRecord.Written(f.id().value(), claim, sup);
    }
}
