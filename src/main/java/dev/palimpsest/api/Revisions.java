package dev.palimpsest.api;

import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.CommitId;
import java.io.IOException;
import org.eclipse.jgit.lib.ObjectId;

/** Resolves revision text to a commit of a repository, for the public API classes. Stateless. */
final class Revisions {
    private Revisions() {}

    static CommitId resolve(GitRepo repo, String revision) throws NotFoundException {
        try {
            ObjectId id = repo.repository().resolve(revision + "^{commit}");
            if (id == null) {
                throw new NotFoundException("no commit '" + revision + "' in this store");
            }
            return CommitId.of(id.name());
        } catch (org.eclipse.jgit.errors.MissingObjectException e) {
            throw new NotFoundException("no commit '" + revision + "' in this store");
        } catch (org.eclipse.jgit.errors.RevisionSyntaxException | org.eclipse.jgit.errors.AmbiguousObjectException
                | org.eclipse.jgit.errors.IncorrectObjectTypeException e) {
            throw new NotFoundException("'" + revision + "' is not an unambiguous commit of this store");
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot resolve " + revision, e);
        }
    }
}
