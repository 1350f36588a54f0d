package dev.palimpsest.internal.query;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import org.eclipse.jgit.errors.AmbiguousObjectException;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.errors.RevisionSyntaxException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevWalk;

/** The commits of a repository: revision text resolved, commit ids checked. Stateless. */
public final class Commits {
    private Commits() {}

    /**
     * Resolves a revision ({@code main}, a full or abbreviated commit id, {@code main~2}).
     *
     * @throws NotFoundException when it names no commit of the repository, or is ambiguous
     */
    public static CommitId resolve(GitRepo repo, String revision) throws NotFoundException {
        try {
            ObjectId id = repo.repository().resolve(revision + "^{commit}");
            if (id == null) {
                throw new NotFoundException("no commit '" + revision + "' in this store");
            }
            return CommitId.of(id.name());
        } catch (MissingObjectException e) {
            throw new NotFoundException("no commit '" + revision + "' in this store");
        } catch (RevisionSyntaxException | AmbiguousObjectException | IncorrectObjectTypeException e) {
            throw new NotFoundException("'" + revision + "' is not an unambiguous commit of this store");
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot resolve " + revision, e);
        }
    }

    /**
     * The commit {@code at}, checked to be a commit of the repository.
     *
     * @throws NotFoundException when the repository has no commit {@code at}
     */
    public static ObjectId require(GitRepo repo, CommitId at) throws NotFoundException {
        ObjectId id = ObjectId.fromString(at.hex());
        try (ObjectReader reader = repo.newReader(); RevWalk walk = new RevWalk(reader)) {
            walk.parseCommit(id);
            return id;
        } catch (MissingObjectException | IncorrectObjectTypeException e) {
            throw new NotFoundException("no commit " + at.hex() + " in this store");
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read commit " + at.hex(), e);
        }
    }
}
