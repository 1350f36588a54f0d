package dev.palimpsest.testing;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/** Histories no Palimpsest writer makes, written with plain JGit for tests of what refuses them. */
public final class Forgery {
    private Forgery() {}

    /**
     * Moves {@code gitDir}'s main to a new unsigned commit by {@code actor}, without trailers, with
     * main's tree; returns it.
     */
    public static ObjectId unsignedCommitOnMain(Path gitDir, String actor) throws Exception {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
                ObjectInserter ins = r.newObjectInserter()) {
            ObjectId main = r.resolve("refs/heads/main");
            CommitBuilder cb = new CommitBuilder();
            cb.setTreeId(r.resolve("refs/heads/main^{tree}"));
            cb.setParentId(main);
            PersonIdent who = new PersonIdent(actor, actor + "@example.org", Instant.now(), ZoneOffset.UTC);
            cb.setAuthor(who);
            cb.setCommitter(who);
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
}
