package dev.palimpsest.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEditor;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;

/** Histories no Palimpsest writer makes, written with plain JGit for tests of what refuses them. */
public final class Forgery {
    private Forgery() {}

    /**
     * Moves {@code gitDir}'s main to a new unsigned commit by {@code actor}, without trailers, with
     * main's tree; returns it.
     */
    public static ObjectId unsignedCommitOnMain(Path gitDir, String actor) throws Exception {
        return unsignedCommitOnMain(gitDir, actor, Map.of());
    }

    /**
     * Moves {@code gitDir}'s main to a new unsigned commit by {@code actor}, without trailers, with
     * main's tree and these files put in it (path to content); returns it.
     */
    public static ObjectId unsignedCommitOnMain(Path gitDir, String actor, Map<String, byte[]> files) throws Exception {
        PersonIdent who = new PersonIdent(actor, actor + "@example.org", Instant.now(), ZoneOffset.UTC);
        return unsignedCommitOnMain(gitDir, who, who, files);
    }

    /** As {@link #unsignedCommitOnMain(Path, String, Map)}, with this author and committer (and their times). */
    public static ObjectId unsignedCommitOnMain(Path gitDir, PersonIdent author, PersonIdent committer,
            Map<String, byte[]> files) throws Exception {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
                ObjectInserter ins = r.newObjectInserter(); ObjectReader reader = r.newObjectReader()) {
            ObjectId main = r.resolve("refs/heads/main");
            ObjectId tree = r.resolve("refs/heads/main^{tree}");
            DirCache dc = DirCache.newInCore();
            DirCacheBuilder b = dc.builder();
            b.addTree(new byte[0], 0, reader, tree);
            b.finish();
            DirCacheEditor ed = dc.editor();
            files.forEach((path, content) -> {
                ObjectId blob = insertBlob(ins, content);
                ed.add(new DirCacheEditor.PathEdit(path) {
                    @Override
                    public void apply(DirCacheEntry e) {
                        e.setFileMode(FileMode.REGULAR_FILE);
                        e.setObjectId(blob);
                    }
                });
            });
            ed.finish();
            CommitBuilder cb = new CommitBuilder();
            cb.setTreeId(files.isEmpty() ? tree : dc.writeTree(ins));
            cb.setParentId(main);
            cb.setAuthor(author);
            cb.setCommitter(committer);
            cb.setMessage("forged\n");
            ObjectId c = ins.insert(cb);
            ins.flush();
            RefUpdate u = r.updateRef("refs/heads/main");
            u.setNewObjectId(c);
            u.setExpectedOldObjectId(main);
            if (u.update() != RefUpdate.Result.FAST_FORWARD) {
                throw new IllegalStateException("could not move main of " + gitDir + " to the forged commit");
            }
            return c;
        }
    }

    /** Moves {@code gitDir}'s main on by {@code n} unsigned commits by {@code actor}, each with main's tree; returns the last. */
    public static ObjectId emptyCommitsOnMain(Path gitDir, String actor, int n) throws Exception {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
                ObjectInserter ins = r.newObjectInserter()) {
            ObjectId main = r.resolve("refs/heads/main");
            ObjectId tree = r.resolve("refs/heads/main^{tree}");
            PersonIdent who = new PersonIdent(actor, actor + "@example.org", Instant.now(), ZoneOffset.UTC);
            ObjectId tip = main;
            for (int i = 0; i < n; i++) {
                CommitBuilder cb = new CommitBuilder();
                cb.setTreeId(tree);
                cb.setParentId(tip);
                cb.setAuthor(who);
                cb.setCommitter(who);
                cb.setMessage("empty " + i + "\n");
                tip = ins.insert(cb);
            }
            ins.flush();
            RefUpdate u = r.updateRef("refs/heads/main");
            u.setNewObjectId(tip);
            u.setExpectedOldObjectId(main);
            if (u.update() != RefUpdate.Result.FAST_FORWARD) {
                throw new IllegalStateException("could not move main of " + gitDir + " to the forged commits");
            }
            return tip;
        }
    }

    /**
     * Writes, without moving any ref, an unsigned commit by {@code who} with {@code parents} (first
     * parent first) whose tree is {@code base}'s tree (null: empty) with {@code edits} applied (path
     * to content; null content removes the path); every file is a regular file. Returns it.
     */
    public static ObjectId commit(Repository r, ObjectId base, Map<String, byte[]> edits, PersonIdent who,
            String message, ObjectId... parents) throws IOException {
        TreeMap<String, ObjectId> files = new TreeMap<>();
        if (base != null) {
            try (RevWalk walk = new RevWalk(r); TreeWalk tw = new TreeWalk(r)) {
                tw.addTree(walk.parseCommit(base).getTree());
                tw.setRecursive(true);
                while (tw.next()) {
                    files.put(tw.getPathString(), tw.getObjectId(0));
                }
            }
        }
        try (ObjectInserter ins = r.newObjectInserter()) {
            for (Map.Entry<String, byte[]> e : edits.entrySet()) {
                if (e.getValue() == null) {
                    files.remove(e.getKey());
                } else {
                    files.put(e.getKey(), ins.insert(Constants.OBJ_BLOB, e.getValue()));
                }
            }
            DirCache dc = DirCache.newInCore();
            DirCacheBuilder builder = dc.builder();
            for (Map.Entry<String, ObjectId> f : files.entrySet()) {
                DirCacheEntry entry = new DirCacheEntry(f.getKey());
                entry.setFileMode(FileMode.REGULAR_FILE);
                entry.setObjectId(f.getValue());
                builder.add(entry);
            }
            builder.finish();
            CommitBuilder cb = new CommitBuilder();
            cb.setTreeId(dc.writeTree(ins));
            cb.setParentIds(parents);
            cb.setAuthor(who);
            cb.setCommitter(who);
            cb.setMessage(message);
            ObjectId id = ins.insert(cb);
            ins.flush();
            return id;
        }
    }

    private static ObjectId insertBlob(ObjectInserter ins, byte[] content) {
        try {
            return ins.insert(Constants.OBJ_BLOB, content);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
