package dev.palimpsest.internal.bulk;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;

/**
 * The facts live at a commit: every fact file under {@code facts/}, {@code sources/},
 * {@code assertions/} and {@code artifacts/} whose id has no retraction record, by id. A forgotten
 * fact has no file, so it is never among them. Stateless.
 */
public final class LiveFacts {
    private LiveFacts() {}

    /** The blob of each live fact at {@code commit}, sorted by id. */
    public static Map<FactId, ObjectId> at(GitRepo repo, ObjectId commit) {
        Map<FactId, ObjectId> files = new TreeMap<>();
        Set<FactId> retracted = new HashSet<>();
        try (ObjectReader reader = repo.newReader(); RevWalk walk = new RevWalk(reader);
                TreeWalk tw = new TreeWalk(reader)) {
            tw.addTree(walk.parseCommit(commit).getTree());
            tw.setRecursive(true);
            java.util.List<String> folders = new java.util.ArrayList<>(StorePaths.FACT_FOLDERS);
            folders.add(StorePaths.RETRACTIONS);
            tw.setFilter(PathFilterGroup.createFromStrings(folders));
            while (tw.next()) {
                String path = tw.getPathString();
                FactId id = StorePaths.idFromPath(path);
                if (id == null) {
                    continue;
                }
                if (path.startsWith(StorePaths.RETRACTIONS + "/")) {
                    retracted.add(id);
                } else {
                    files.put(id, tw.getObjectId(0));
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot list the facts of commit " + commit.name(), e);
        }
        files.keySet().removeAll(retracted);
        return files;
    }
}
