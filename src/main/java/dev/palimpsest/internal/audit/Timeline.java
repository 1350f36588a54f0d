package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.crypto.CommitSignature;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.History;
import dev.palimpsest.model.Arrival;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.LogEntry;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.SignatureStatus;
import dev.palimpsest.model.TimelineEntry;
import dev.palimpsest.model.Trailer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevSort;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * The timeline as a reader sees it: the log from a commit, newest first by commit time (streamed, so a
 * page of it costs what it skips and shows), each commit with its signature status (the audit's commit rule: the
 * author's key as trusted at the first parent, for a genesis commit the key it introduces, must
 * verify the signature, and author, committer and the key's e-mail must agree), its operations
 * counted by {@code Palimpsest-Op} verb, the facts its {@code Palimpsest-Fact} trailers name and, for a
 * commit a pull or an adopted push moved main to, its arrival (main's reflog, read once a call: see
 * {@link dev.palimpsest.internal.git.MainReflog}).
 * The parsed keys are cached per {@code keys/} tree and the statuses of the last
 * {@value #CACHED_STATUSES} commits asked about by commit (a commit's status never changes). Thread-safe.
 */
public final class Timeline {
    private static final String OP = "Palimpsest-Op";
    private static final String FACT = "Palimpsest-Fact";

    /** The most signature statuses kept (a commit's never changes: it is a function of the commit and its parent). */
    static final int CACHED_STATUSES = 20_000;

    private final GitRepo repo;
    private final dev.palimpsest.internal.git.MainReflog reflog;
    private final KeyTables keys = new KeyTables();
    private final Map<ObjectId, SignatureStatus> statuses = java.util.Collections.synchronizedMap(
            new java.util.LinkedHashMap<>(256, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<ObjectId, SignatureStatus> eldest) {
                    return size() > CACHED_STATUSES;
                }
            });

    public Timeline(GitRepo repo) {
        this.repo = Objects.requireNonNull(repo, "repo");
        this.reflog = new dev.palimpsest.internal.git.MainReflog(repo);
    }

    /** The entries from {@code start}, newest first, skipping the first {@code skip}, at most {@code limit} (0: all). */
    public List<TimelineEntry> entries(ObjectId start, int skip, int limit) {
        List<TimelineEntry> out = new ArrayList<>();
        try (RevWalk walk = new RevWalk(repo.repository()); ObjectReader or = repo.repository().newObjectReader();
                Reading reading = new Reading(or)) {
            // newest first by commit time, streamed: a page costs its skip and limit, not a walk of all
            // history first as a topological sort does (the audit keeps a commit no older than its
            // parents, and a parent is only queued once its child is out, so children still come first)
            walk.sort(RevSort.COMMIT_TIME_DESC);
            walk.markStart(walk.parseCommit(start));
            Map<ObjectId, Arrival> arrivals = reflog.arrivals();
            int seen = 0;
            for (RevCommit c : walk) {
                if (seen++ < skip) {
                    continue;
                }
                out.add(entry(walk, reading, c, arrivals));
                if (limit > 0 && out.size() >= limit) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot walk the timeline from " + start.name(), e);
        }
        return out;
    }

    /** The one entry of {@code commit}. */
    public TimelineEntry entry(ObjectId commit) {
        try (RevWalk walk = new RevWalk(repo.repository()); ObjectReader or = repo.repository().newObjectReader();
                Reading reading = new Reading(or)) {
            return entry(walk, reading, walk.parseCommit(commit), reflog.arrivals());
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read the commit " + commit.name(), e);
        }
    }

    private TimelineEntry entry(RevWalk walk, Reading reading, RevCommit c, Map<ObjectId, Arrival> arrivals)
            throws IOException {
        LogEntry log = History.entry(c);
        SortedMap<String, Integer> ops = new TreeMap<>();
        Set<FactId> facts = new LinkedHashSet<>();
        for (Trailer t : log.trailers()) {
            if (t.key().equals(OP) && !t.value().isBlank()) {
                ops.merge(t.value().trim(), 1, Integer::sum);
            } else if (t.key().equals(FACT)) {
                try {
                    facts.add(FactId.of(t.value().trim()));
                } catch (IllegalArgumentException e) {
                    // a trailer that names no valid fact id is the audit's to report, not the timeline's to show
                }
            }
        }
        SignatureStatus status = statuses.get(c);
        if (status == null) {
            ObjectId root = c.getParentCount() == 0 ? c.getTree() : walk.parseCommit(c.getParent(0)).getTree();
            status = signature(reading, c.getRawBuffer(), root);
            statuses.put(c.copy(), status);
        }
        return new TimelineEntry(log, status, ops, List.copyOf(facts), java.util.Optional.ofNullable(arrivals.get(c)));
    }

    private SignatureStatus signature(Reading reading, byte[] rawCommit, ObjectId trustedRoot) throws IOException {
        RawCommit raw = RawCommit.parse(rawCommit);
        if (raw.signature() == null) {
            return SignatureStatus.UNSIGNED;
        }
        RawCommit.Ident author = raw.author();
        RawCommit.Ident committer = raw.committer();
        if (raw.signatureHeaders() != 1 || author == null || committer == null
                || !author.name().equals(committer.name()) || !author.email().equals(committer.email())) {
            return SignatureStatus.UNTRUSTED;
        }
        CommitSignature sig;
        try {
            sig = CommitSignature.parse(raw.signature());
        } catch (IllegalArgumentException e) {
            return SignatureStatus.UNTRUSTED;
        }
        KeyTables.Table trusted;
        try {
            trusted = keys.at(reading, trustedRoot);
        } catch (MalformedObjectException e) {
            return SignatureStatus.UNTRUSTED;
        }
        KeyTables.Entry own = trusted.byActor().get(author.name());
        boolean verified = own != null && own.key() != null && own.key().holds(sig.keyId())
                && own.key().verify(sig, raw.payload()) && Objects.equals(own.key().email(), author.email());
        return verified ? SignatureStatus.VERIFIED : SignatureStatus.UNTRUSTED;
    }
}
