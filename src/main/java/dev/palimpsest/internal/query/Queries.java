package dev.palimpsest.internal.query;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.History;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.ExistsAt;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RefStatus;
import dev.palimpsest.model.Weight;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * Every read of a store at a commit, with one rule for what does not exist: a commit the repository
 * does not hold, and a fact never written in the ancestry of the asked commit, are each a
 * {@link NotFoundException}. Thread-safe (the index serialises its own access).
 */
public final class Queries {
    private final GitRepo repo;
    private final PredicateIndex index;

    private final java.util.function.BiFunction<FactId, ObjectId, ObjectId> forgottenAt;

    public Queries(GitRepo repo, PredicateIndex index) {
        this(repo, index, (id, head) -> null);
    }

    /**
     * Queries whose reads of a forgotten fact answer "forgotten at C": {@code forgottenAt} gives,
     * for a fact and main's tip, the commit that wrote its tombstone, or null.
     */
    public Queries(GitRepo repo, PredicateIndex index, java.util.function.BiFunction<FactId, ObjectId, ObjectId> forgottenAt) {
        this.repo = repo;
        this.index = index;
        this.forgottenAt = forgottenAt;
    }

    /** Throws not-found "forgotten at C" when {@code id} is tombstoned on main. */
    public void requireNotForgotten(FactId id) throws NotFoundException {
        ObjectId head = repo.head();
        ObjectId c = head == null ? null : forgottenAt.apply(id, head);
        if (c != null) {
            throw new NotFoundException("fact " + id + ": forgotten at " + c.name());
        }
    }

    /** The commit {@code at}, checked, with the index caught up to it. */
    public ObjectId commit(CommitId at) throws NotFoundException {
        ObjectId c = ObjectId.fromString(at.hex());
        if (!index.indexed(c)) {
            Commits.require(repo, at);
            index.catchUp(c);
        }
        return c;
    }

    /** The fact's indexed state at {@code at}, never null. */
    public FactState state(FactId id, CommitId at) throws NotFoundException {
        FactState st = index.state(id, commit(at));
        if (st == null) {
            throw new NotFoundException(neverWritten(id, at));
        }
        return st;
    }

    /** The fact's state at {@code at}; not found also when its file was removed without a retraction record. */
    private FactState navigable(FactId id, CommitId at) throws NotFoundException {
        FactState st = state(id, at);
        if (!st.navigable()) {
            throw new NotFoundException(id + " has no navigable version at " + at.hex()
                    + " (its file was removed without a retraction record)");
        }
        return st;
    }

    public FactRead read(FactId id, CommitId at) throws NotFoundException {
        requireNotForgotten(id);
        FactState st = navigable(id, at);
        try (Snapshot s = Snapshot.of(repo, ObjectId.fromString(at.hex()))) {
            Versions v = new Versions(index, s);
            Versions.Located loc = v.locate(id, st);
            if (loc != null) {
                return new FactRead.Found(Versions.version(id, st).orElseThrow(), decode(s, loc.blob(), loc.path()));
            }
            RetractionRecord r = v.retraction(id);
            if (r == null) {
                throw new PalimpsestInternalException(id + " is neither live nor retracted at " + at.hex());
            }
            ObjectId blob = ObjectId.fromString(r.version().blob().hex());
            return new FactRead.Retracted(id, v.retractedAt(id), r.reason(), r.version(),
                    decode(s, blob, r.version().id().value()));
        }
    }

    public List<FactId> liveIds(String prefix, CommitId at, int limit) throws NotFoundException {
        return index.liveIdsWithPrefix(prefix, commit(at), limit).stream().map(FactId::of).toList();
    }

    public boolean live(FactId id, CommitId at) throws NotFoundException {
        return state(id, at).live();
    }

    /** The fact's validity at {@code at} with succession applied; empty when it is not live there. */
    public java.util.Optional<dev.palimpsest.model.Validity> validity(FactId id, CommitId at) throws NotFoundException {
        FactState st = state(id, at);
        if (!st.live()) {
            return java.util.Optional.empty();
        }
        long[] v = index.effectiveValidity(id.value(), ObjectId.fromString(at.hex()));
        return v == null ? java.util.Optional.empty() : java.util.Optional.of(validity(v));
    }

    /** Whether the fact is live at {@code at} and valid at {@code instant} there, succession applied. */
    public boolean validAt(FactId id, java.time.Instant instant, CommitId at) throws NotFoundException {
        ObjectId c = commit(at);
        long[] v = index.effectiveValidity(id.value(), c);
        if (v == null) {
            state(id, at); // never written: not found
            return false;
        }
        return PredicateIndex.holdsAt(v, instant.getEpochSecond());
    }

    /** {@code {from, until}} in epoch seconds as a {@link dev.palimpsest.model.Validity}. */
    public static dev.palimpsest.model.Validity validity(long[] v) {
        return new dev.palimpsest.model.Validity(
                v[0] == Long.MIN_VALUE ? java.time.Instant.MIN : java.time.Instant.ofEpochSecond(v[0]),
                v[1] == Long.MAX_VALUE ? java.time.Instant.MAX : java.time.Instant.ofEpochSecond(v[1]));
    }

    public ExistsAt existsAt(FactId id, CommitId at) throws NotFoundException {
        FactState st = navigable(id, at);
        FactVersion v = Versions.version(id, st)
                .orElseThrow(() -> new PalimpsestInternalException("no version of " + id + " at " + at.hex()));
        return new ExistsAt(v, st.live());
    }

    public List<InboundRef> inbound(FactId target, CommitId at, boolean all) throws NotFoundException {
        state(target, at);
        return Dependents.inbound(repo, index, target, ObjectId.fromString(at.hex()), all);
    }

    public List<RefStatus> stale(FactId id, CommitId at) throws NotFoundException {
        ObjectId c = ObjectId.fromString(at.hex());
        List<RefStatus> out = new java.util.ArrayList<>();
        for (RefStatus r : Dependents.stale(index, id, state(id, at), c)) {
            ObjectId tomb = r.status() == RefStatus.Status.RETRACTED ? forgottenAt.apply(r.target(), c) : null;
            out.add(tomb == null ? r : new RefStatus(r.target(), r.role(), RefStatus.Status.FORGOTTEN, r.pinned(),
                    CommitId.of(tomb.name()), null));
        }
        return out;
    }

    public Weight weight(FactId id, CommitId at) throws NotFoundException {
        state(id, at);
        return Lineage.weight(repo, index, id, at);
    }

    /** Every change to the fact's file reachable from main, and its forget (the tombstone's commit), newest first. */
    public List<HistoryEntry> history(FactId id) throws NotFoundException {
        ObjectId head = repo.head();
        List<HistoryEntry> out = new ArrayList<>();
        if (head == null) {
            throw new NotFoundException("fact " + id + " was never written on main");
        }
        List<String> paths = StorePaths.candidatePaths(id);
        List<String> tomb = List.of(StorePaths.tombstonePath(id));
        List<String> watched = new ArrayList<>(paths);
        watched.addAll(tomb);
        History.changes(repo, head, watched, c -> {
            ObjectId blob = blobAt(c, paths);
            HistoryEntry.Change change;
            if (blob == null && blobAt(c, tomb) != null && (c.getParentCount() == 0 || blobAt(c.getParent(0), tomb) == null)) {
                change = HistoryEntry.Change.FORGOTTEN;
            } else if (blob == null) {
                change = HistoryEntry.Change.RETRACTED;
            } else {
                change = c.getParentCount() == 0 || blobAt(c.getParent(0), paths) == null
                        ? HistoryEntry.Change.ADDED : HistoryEntry.Change.REVISED;
            }
            out.add(new HistoryEntry(id, CommitId.of(c.name()), change, blob == null ? null : BlobId.of(blob.name()),
                    author(c), c.getAuthorIdent().getWhenAsInstant()));
        });
        if (out.isEmpty()) {
            throw new NotFoundException("fact " + id + " was never written on main");
        }
        return out;
    }

    public Optional<String> publicKey(ActorName actor, CommitId at) throws NotFoundException {
        try (Snapshot s = Snapshot.of(repo, Commits.require(repo, at))) {
            byte[] b = s.readPath(StorePaths.keyPath(actor));
            return b == null ? Optional.empty() : Optional.of(new String(b, StandardCharsets.US_ASCII));
        }
    }

    public List<ActorKey> keys(CommitId at) throws NotFoundException {
        try (Snapshot s = Snapshot.of(repo, Commits.require(repo, at))) {
            return Keys.list(s);
        }
    }

    private static String neverWritten(FactId id, CommitId at) {
        return "fact " + id + " was never written in the ancestry of " + at.hex();
    }

    private static ActorName author(RevCommit c) {
        String name = c.getAuthorIdent().getName();
        try {
            return ActorName.of(name);
        } catch (IllegalArgumentException e) {
            throw new PalimpsestInternalException("commit " + c.name() + " has an author that is no actor: "
                    + e.getMessage());
        }
    }

    private ObjectId blobAt(RevCommit c, List<String> paths) {
        try (Snapshot s = Snapshot.of(repo, c)) {
            for (String p : paths) {
                ObjectId b = s.blobAt(p);
                if (b != null) {
                    return b;
                }
            }
            return null;
        }
    }

    private Fact decode(Snapshot s, ObjectId blob, String what) throws NotFoundException {
        Fact f;
        try {
            f = dev.palimpsest.internal.yaml.CanonicalFacts.decode(s.read(blob), what, repo.vault()).fact();
        } catch (FormatException e) {
            throw new PalimpsestInternalException("corrupt fact file: " + e.getMessage());
        }
        if (f.contentUnavailable()) {
            requireNotForgotten(f.id());
            throw new NotFoundException("fact " + f.id() + ": sealed content unavailable (no data key in this "
                    + "store's vault, " + dev.palimpsest.internal.vault.Vault.FOLDER + "/)");
        }
        return f;
    }
}
