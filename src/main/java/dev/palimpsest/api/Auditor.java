package dev.palimpsest.api;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.internal.audit.AuditEngine;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.audit.AuditCheck;
import dev.palimpsest.internal.audit.IndexCheck;
import dev.palimpsest.internal.index.PersistedIndex;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.AuditViolation;
import java.util.ArrayList;
import java.util.List;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.internal.query.Commits;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.nio.file.Path;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Audits a store's history from its objects alone: for every commit, the signature by a key
 * trusted at its parent, the author's identity, its dates (store-layout.md, "Time"), git's strict
 * checks of every commit and tree object read, trailers that agree with the tree change, every
 * added or modified file (format, canonical path, the reference gate's rules at that commit) and
 * retraction records consistent with the tree. Needs no key home and never writes.
 *
 * <p>Opening honours git's {@code GIT_OBJECT_DIRECTORY} and {@code GIT_ALTERNATE_OBJECT_DIRECTORIES},
 * so a {@code pre-receive} hook sees the quarantined objects of the push it judges. Thread-safe;
 * arguments must not be null ({@link NullPointerException} naming the argument; a caller without
 * a progress display passes {@link AuditProgress#none()}). Close it to release the repository.
 */
public final class Auditor implements AutoCloseable {
    private static final String ZERO = ObjectId.zeroId().name();

    private final GitRepo repo;

    private Auditor(GitRepo repo) {
        this.repo = repo;
    }

    /**
     * Opens the repository at {@code gitDir} for auditing.
     *
     * @throws NotFoundException when {@code gitDir} is not a git repository
     */
    public static Auditor open(Path gitDir) throws NotFoundException {
        try {
            GitRepo repo = GitRepo.openForReading(gitDir, System.getenv());
            if (repo == null) {
                throw new NotFoundException("no store at " + gitDir + " (not a git repository)");
            }
            return new Auditor(repo);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot open repository at " + gitDir, e);
        }
    }

    /**
     * Resolves a revision (a full or abbreviated commit id, {@code main}, {@code main~2}) to a commit.
     *
     * @throws NotFoundException when it names no commit of this repository
     */
    public CommitId resolve(String revision) throws NotFoundException {
        return Commits.resolve(repo, Objects.requireNonNull(revision, "revision"));
    }

    /**
     * Audits the commits reachable from {@code to} and not from {@code from}, oldest first;
     * {@code from} null audits down to the genesis commit.
     *
     * @throws NotFoundException when {@code from} or {@code to} is no commit of the repository
     * @deprecated a null {@code from} meant "down to the genesis commit"; use {@link
     *     #auditRange(CommitId, CommitId, AuditProgress)}, or {@link #auditUpTo(CommitId, AuditProgress)}
     *     down to the genesis commit.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public AuditReport audit(CommitId from, CommitId to, AuditProgress progress) throws NotFoundException {
        return audit(Optional.ofNullable(from), to, progress);
    }

    /**
     * Audits the commits reachable from {@code to} and not from {@code from}, oldest first.
     *
     * @throws NotFoundException when {@code from} or {@code to} is no commit of the repository
     */
    public AuditReport auditRange(CommitId from, CommitId to, AuditProgress progress) throws NotFoundException {
        return audit(Optional.of(Objects.requireNonNull(from, "from")), to, progress);
    }

    /**
     * Audits every commit reachable from {@code to}, down to the genesis commit, oldest first.
     *
     * @throws NotFoundException when {@code to} is no commit of the repository
     */
    public AuditReport auditUpTo(CommitId to, AuditProgress progress) throws NotFoundException {
        return audit(Optional.empty(), Objects.requireNonNull(to, "to"), progress);
    }

    private AuditReport audit(Optional<CommitId> from, CommitId to, AuditProgress progress) throws NotFoundException {
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(progress, "progress (use AuditProgress.none())");
        ObjectId start = from.isPresent() ? Commits.require(repo, from.get()) : null;
        ObjectId end = Commits.require(repo, to);
        PersistedIndex.Contents persisted = PersistedIndex.read(repo);
        IndexCheck index = new IndexCheck(persisted);
        List<AuditCheck> checks = new ArrayList<>(AuditEngine.standardChecks(repo, true));
        checks.add(index);
        AuditReport r = new AuditEngine(repo, checks).run(start, end, progress);
        if (!persisted.corrupt() && !index.disagreed()) {
            return r;
        }
        PersistedIndex.discard(repo);
        if (!persisted.corrupt()) {
            return r;
        }
        List<AuditViolation> all = new ArrayList<>(r.violations());
        all.add(new AuditViolation(to, IndexCheck.PATH, Rule.INDEX_DISAGREES,
                "the persisted predicate index is corrupt; it was discarded and will be rebuilt"));
        return new AuditReport(r.commits(), r.signatures(), r.files(), r.refs(), all);
    }

    /**
     * Audits all of {@code main}.
     *
     * @throws NotFoundException when main has no commit
     */
    public AuditReport audit(AuditProgress progress) throws NotFoundException {
        ObjectId head = repo.head();
        if (head == null) {
            throw new NotFoundException("no store at " + repo.gitDir() + " (" + GitRepo.MAIN + " has no commit)");
        }
        return audit(Optional.empty(), CommitId.of(head.name()), progress);
    }

    /**
     * Audits a range given as text: null audits all of {@code main}; {@code OLD..NEW} the commits
     * reachable from NEW and not from OLD, where an empty or all-zero OLD (as git passes for a new
     * ref) means down to the genesis commit; a single revision everything reachable from it.
     *
     * @throws NotFoundException when a revision names no commit, or main has none
     * @throws IllegalArgumentException when the range has no NEW after {@code ..}
     * @deprecated a null {@code range} meant all of {@code main}; use {@link #auditRange(String,
     *     AuditProgress)}, or {@link #audit(AuditProgress)} for all of {@code main}.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public AuditReport audit(String range, AuditProgress progress) throws NotFoundException {
        Objects.requireNonNull(progress, "progress (use AuditProgress.none())");
        return range == null ? audit(progress) : auditRange(range, progress);
    }

    /**
     * Audits a range given as text: {@code OLD..NEW} the commits reachable from NEW and not from OLD,
     * where an empty or all-zero OLD (as git passes for a new ref) means down to the genesis commit;
     * a single revision everything reachable from it.
     *
     * @throws NotFoundException when a revision names no commit
     * @throws IllegalArgumentException when the range has no NEW after {@code ..}
     */
    public AuditReport auditRange(String range, AuditProgress progress) throws NotFoundException {
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(progress, "progress (use AuditProgress.none())");
        int dots = range.indexOf("..");
        if (dots < 0) {
            return audit(Optional.empty(), resolve(range), progress);
        }
        String old = range.substring(0, dots);
        String neu = range.substring(dots + 2);
        if (neu.isEmpty() || neu.startsWith(".")) {
            throw new IllegalArgumentException("range '" + range + "' must be OLD..NEW");
        }
        if (old.isEmpty() || old.equals(ZERO)) {
            return audit(Optional.empty(), resolve(neu), progress);
        }
        return audit(Optional.of(resolve(old)), resolve(neu), progress);
    }

    /** The git directory audited. */
    public Path gitDir() {
        return repo.gitDir();
    }

    /** Releases the repository; the auditor must not be used afterwards. */
    @Override
    public void close() {
        repo.close();
    }
}
