package dev.palimpsest.internal.audit;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.AuditViolation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevSort;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * Runs the audit: lists the commits of a range oldest first with one revision walk, then checks
 * them on one worker thread per core, each commit against its first parent by every
 * {@link AuditCheck}, and gathers the violations in commit order. Progress is reported from the
 * calling thread. Thread-safe; one engine may run many audits.
 */
public final class AuditEngine {
    /** One commit to audit: its id, tree and parents. */
    record Node(ObjectId id, ObjectId tree, List<ObjectId> parents) {}

    private final GitRepo repo;
    private final List<AuditCheck> checks;

    public AuditEngine(GitRepo repo, List<AuditCheck> checks) {
        this.repo = repo;
        this.checks = List.copyOf(checks);
    }

    /** The built-in checks, in reporting order; extensions are appended here. */
    public static List<AuditCheck> standardChecks() {
        return List.of(new CommitCheck(), new TimeCheck(), new MergeCheck(), new TrailerCheck(), new FileCheck(), new CycleCheck(),
                new RetractionCheck(), new ContentCheck());
    }

    /**
     * The built-in checks and the rules that need history beyond the parent's tree (forget,
     * supersession, succession on a revision) on {@code repo}; {@code checkVault}: also its key vault.
     */
    public static List<AuditCheck> standardChecks(GitRepo repo, boolean checkVault) {
        List<AuditCheck> all = new java.util.ArrayList<>(standardChecks());
        all.add(new ForgetCheck(repo, checkVault));
        all.add(new SupersessionCheck(repo));
        all.add(new SuccessionCheck(repo));
        all.add(new RoleCheck(repo));
        return all;
    }

    /**
     * Audits every commit reachable from {@code to} and not from {@code from} ({@code from} null:
     * down to the genesis commit).
     */
    public AuditReport run(ObjectId from, ObjectId to, AuditProgress progress) {
        return run(from, to, progress, AuditObserver.NONE);
    }

    /** As {@link #run(ObjectId, ObjectId, AuditProgress)}, telling {@code observer} what it read. */
    public AuditReport run(ObjectId from, ObjectId to, AuditProgress progress, AuditObserver observer) {
        try (AuditStream s = stream(observer, repo::newReader)) {
            return s.finish(from, to, progress);
        }
    }

    /**
     * Starts an audit fed commit by commit ({@link AuditStream}), reading objects through readers
     * from {@code readers} (one per worker thread), telling {@code observer} what it read.
     */
    public AuditStream stream(AuditObserver observer, java.util.function.Supplier<org.eclipse.jgit.lib.ObjectReader> readers) {
        return new AuditStream(this, observer, readers);
    }

    GitRepo repo() {
        return repo;
    }

    List<AuditCheck> checks() {
        return checks;
    }

    /**
     * Checks the one commit {@code id} as {@link #run} checks each commit of a range (for a merge
     * commit: by the checks that apply to merges), reading every object through {@code reader},
     * which may serve objects not yet in the object database, such as a merge commit about to be
     * written; returns the violations in the checks' order. Closes {@code reader}.
     */
    public List<AuditViolation> check(ObjectId id, org.eclipse.jgit.lib.ObjectReader reader) {
        try (Reading reading = new Reading(reader)) {
            RawCommit raw = RawCommit.parse(reading.bytes(id, Constants.OBJ_COMMIT));
            Node node = new Node(id.copy(), raw.tree(), raw.parents());
            AuditRun run = new AuditRun(checks, new Ancestry(repo::newReader, List.of(node)), Map.of(node.id(), node),
                    repo.vault(), AuditObserver.NONE);
            return check(run, node, reading, false).violations();
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read commit " + id.name() + " to check it: " + e.getMessage(), e);
        }
    }

    /**
     * Checks {@code node} by every check; {@code streamed}: returns null, checking nothing, when a
     * check would read the repository itself ({@link AuditCheck#readsRepository}).
     */
    AuditedCommit check(AuditRun run, Node node, Reading reading, boolean streamed) {
        RawCommit raw;
        AuditedCommit c;
        try {
            raw = RawCommit.parse(reading.bytes(node.id(), Constants.OBJ_COMMIT));
            ObjectId parentTree = raw.parents().isEmpty() ? null : run.treeOf(reading, raw.parents().get(0));
            c = new AuditedCommit(run, node.id(), raw, parentTree, reading.diff(parentTree, raw.tree()), reading);
        } catch (MalformedObjectException e) {
            c = new AuditedCommit(run, node.id(), RawCommit.parse(placeholder(node)), null, List.of(), reading);
            c.violation(null, Rule.MALFORMED_OBJECT, e.getMessage());
            return c;
        } catch (IOException | IllegalArgumentException e) {
            c = new AuditedCommit(run, node.id(), RawCommit.parse(placeholder(node)), null, List.of(), reading);
            c.violation(null, e instanceof Reading.TooLarge ? Rule.TOO_LARGE : Rule.UNREADABLE,
                    "cannot read the commit or its first parent: " + e.getMessage());
            return c;
        }
        boolean merge = raw.parents().size() == 2;
        if (streamed) {
            for (AuditCheck check : run.checks) {
                if ((!merge || check.checksMerges()) && check.readsRepository(c)) {
                    return null;
                }
            }
        }
        for (AuditCheck check : run.checks) {
            if (merge && !check.checksMerges()) {
                continue;
            }
            try {
                check.check(c);
            } catch (Reading.TooLarge e) {
                c.violation(c.changes().stream().filter(ch -> e.id().equals(ch.newBlob())).map(Change::path)
                        .findFirst().orElse(null), Rule.TOO_LARGE, e.getMessage());
            } catch (MalformedObjectException e) {
                c.violation(null, Rule.MALFORMED_OBJECT, e.getMessage());
            } catch (IOException e) {
                c.violation(null, Rule.UNREADABLE, "cannot read an object the audit needs: " + e.getMessage());
            }
        }
        run.observer.commit(c.id(), raw.parents(), c.changes());
        return c;
    }

    private static byte[] placeholder(Node n) {
        return ("tree " + n.tree().name() + "\n\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    @dev.palimpsest.model.DoNotMutate("memory only: the listing reads parents and trees, never a commit's body")
    private static void dropBodies(RevWalk walk) {
        walk.setRetainBody(false);
    }

    List<Node> enumerate(ObjectId from, ObjectId to) {
        List<Node> out = new ArrayList<>();
        try (RevWalk walk = new RevWalk(repo.repository())) {
            dropBodies(walk);
            walk.sort(RevSort.TOPO);
            walk.sort(RevSort.REVERSE, true);
            walk.markStart(walk.parseCommit(to));
            if (from != null) {
                walk.markUninteresting(walk.parseCommit(from));
            }
            for (RevCommit c : walk) {
                List<ObjectId> parents = new ArrayList<>(c.getParentCount());
                for (RevCommit p : c.getParents()) {
                    parents.add(p.copy());
                }
                out.add(new Node(c.copy(), c.getTree().copy(), parents));
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot list the commits to audit: " + e.getMessage(), e);
        }
        return out;
    }
}
