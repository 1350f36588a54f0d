package dev.palimpsest.api;

import dev.palimpsest.internal.claims.ClaimQueries;
import dev.palimpsest.internal.claims.ClaimsIndex;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.query.Commits;
import dev.palimpsest.internal.search.Briefs;
import dev.palimpsest.internal.search.Ranker;
import dev.palimpsest.internal.search.SearchIndex;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.model.Brief;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.KnownEntity;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import java.util.List;
import java.util.Objects;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Recall: what memory holds that is relevant to a question, as of any commit of main. {@link
 * #search} ranks the facts live at the commit (not retracted, not superseded by a live fact, each in
 * its version there) and says why each was returned; {@link #brief} renders what an agent puts in
 * its prompt before it works: known facts with provenance, contradictions and dead ends, fitted to
 * a token budget. Both answer from the persisted search index ({@code palimpsest-index/search-v1/},
 * opened and caught up with main on first use, kept up to date by every write of this store).
 *
 * <p>"Latest or at a commit" is said in the question: a {@link SearchQuery} or {@link BriefRequest}
 * built without {@code at(commit)} is answered at the tip of main.
 *
 * <p>Thread-safe. Arguments must not be null ({@link NullPointerException} naming the argument).
 */
public final class Recall {
    private final Store store;
    private final GitRepo repo;
    private final Writer writer;
    private SearchIndex index;
    private Ranker ranker;
    private Briefs briefs;

    private final dev.palimpsest.model.Embedder embedder;

    Recall(Store store, GitRepo repo, Writer writer, dev.palimpsest.model.Embedder embedder) {
        this.store = store;
        this.repo = repo;
        this.writer = writer;
        this.embedder = embedder;
    }

    /** The model of the semantic channel ({@link dev.palimpsest.model.Embedder#NONE}: none). */
    public dev.palimpsest.model.Embedder embedder() {
        return embedder;
    }

    /** Drops the search index unsaved (deleting its folder when this process held it): the next question rebuilds it from git. */
    synchronized void scrub() {
        if (index != null) {
            writer.removeListener(index);
            index.discard();
            index = null;
            ranker = null;
            briefs = null;
        }
    }

    /** Drops the search index when a forget was seen since it was opened (its documents may hold what was erased). */
    void dropIfStale() {
        long g = writer.watch().check();
        synchronized (this) {
            if (index != null && g != generation) {
                scrub();
            }
        }
    }

    /** The vault generation the open index was built under. */
    private long generation;

    private SearchIndex open() {
        long g = writer.watch().check();
        synchronized (this) {
            if (index != null && g != generation) {
                scrub();
            }
            return openHeld(g);
        }
    }

    private synchronized SearchIndex openHeld(long g) {
        if (index == null) {
            generation = g;
            ClaimsIndex claims = store.claims().index();
            index = SearchIndex.open(repo, claims, embedder);
            writer.addListener(index);
            ranker = new Ranker(index);
            briefs = new Briefs(ranker, new ClaimQueries(claims), index);
        }
        return index;
    }

    /**
     * The facts relevant to {@code q} at its commit ({@link SearchQuery#commit()}; none: the tip of main
     * when asked), best first: at most {@code q.limit()}, in bands. A fact a named entity reaches (its
     * subject or object key, by {@link dev.palimpsest.model.EntityKey}, or all the entity's words in
     * its text) scores in [0.91, 1.0], ordered by its relevance to the query text and then by how it
     * names the entity (subject, object, text); a text hit scores at most 0.9 (BM25 over stemmed
     * English text with possessives dropped, exact words weighing more, and a boost for each subject
     * key the text names); the spelling channel corrects only words that are no word of the index
     * (character trigrams of subject and object keys, Dice similarity at least 0.5), scoring {@code
     * 0.9 * similarity}; each hop multiplies the parent's score by 0.45, following refs and receipt
     * members and claim entities in both directions. Asked at a valid time ({@link
     * SearchQuery#validTime()}), only facts valid in the world then are hits, and hops go only through
     * them: their validity at the commit, succession applied, holds at that instant (as {@link
     * Store#factValidAt} answers; an open bound always holds). No query text and no entity: an empty
     * list.
     *
     * @throws NotFoundException when the commit is not on main's first-parent history
     */
    public List<SearchHit> search(SearchQuery q) throws NotFoundException {
        Objects.requireNonNull(q, "q");
        if (q.isEmpty()) {
            return List.of();
        }
        return consistent(() -> {
            int seq = seq(q.at());
            Ranker r;
            synchronized (this) {
                open();
                r = ranker;
            }
            return r.search(q, seq, validities(seq)).stream().map(Ranker.Found::hit).toList();
        });
    }

    /** The most entities one {@link #knownEntities} call lists. */
    public static final int MAX_ENTITIES = 1000;

    /**
     * The entity keys that facts live at the tip of main (when asked) name as subject or object, whose
     * key starts with the key of {@code prefix} (blank: every key), most named first, then by key: at
     * most {@code limit} (1 to {@value #MAX_ENTITIES}). So an agent can name an entity it did not
     * invent.
     */
    public List<KnownEntity> knownEntities(String prefix, int limit) {
        Objects.requireNonNull(prefix, "prefix");
        try {
            return knownEntitiesAt(prefix, limit, null);
        } catch (NotFoundException e) {
            throw new IllegalStateException("the tip of main is not on main's history", e);
        }
    }

    /**
     * {@link #knownEntities(String, int)} at commit {@code at}.
     *
     * @throws NotFoundException when the commit is not on main's first-parent history
     */
    public List<KnownEntity> knownEntities(String prefix, int limit, CommitId at) throws NotFoundException {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(at, "at");
        return knownEntitiesAt(prefix, limit, at);
    }

    /** {@code at} null: the tip of main when asked. */
    private List<KnownEntity> knownEntitiesAt(String prefix, int limit, CommitId at) throws NotFoundException {
        if (limit < 1 || limit > MAX_ENTITIES) {
            throw new IllegalArgumentException("limit must be in [1, " + MAX_ENTITIES + "], got " + limit);
        }
        String key = prefix.isBlank() ? "" : EntityKey.of(prefix);
        return consistent(() -> {
            int seq = seq(at);
            Ranker r;
            synchronized (this) {
                open();
                r = ranker;
            }
            return r.knownEntities(key, limit, seq);
        });
    }

    /**
     * Opens the search index and the claims index it reads, catches both up with main, and asks one
     * question of them, so that a first {@link #search} or {@link #brief} does not wait for that work
     * (a server calls this on a background thread as it starts). Questions asked later still catch up
     * with main as it is when they are asked, and a forget seen since still drops the index unsaved.
     * Thread-safe; cheap once the index is open.
     */
    public void prepare() {
        try {
            search(SearchQuery.builder("palimpsest").entity("palimpsest").build());
        } catch (NotFoundException e) {
            throw new IllegalStateException("the tip of main is not on main's history", e);
        }
    }

    private interface Question<T> {
        T ask() throws NotFoundException;
    }

    /**
     * Asks {@code q} again (up to three times) when the claims index started again while it ran
     * (another process moved main onto another first-parent chain, a replica's pushed merge, so the
     * commit numbers it used may name other commits) or the search index it used was dropped (a
     * forget seen meanwhile: its answer may hold what was erased).
     */
    private <T> T consistent(Question<T> q) throws NotFoundException {
        for (int attempt = 0; ; attempt++) {
            SearchIndex asked = open();
            ClaimsIndex claims = asked.claims();
            int epoch = claims.epoch();
            try {
                T answer = q.ask();
                if ((claims.epoch() == epoch && stillOpen(asked)) || attempt == 2) {
                    return answer;
                }
            } catch (RuntimeException e) {
                if ((claims.epoch() == epoch && stillOpen(asked)) || attempt == 2) {
                    throw e;
                }
            }
        }
    }

    /** True while {@code asked} is the open index (not dropped by a forget seen meanwhile). */
    private synchronized boolean stillOpen(SearchIndex asked) {
        return index == asked;
    }

    /**
     * The brief of {@code r} at its commit ({@link BriefRequest#commit()}; none: the tip of main when asked): sections "Known facts (with
     * provenance)", "Contradictions — same subject and predicate, different values" and "Superseded
     * or retracted — do not re-derive these", in that priority, fitted to {@code r.maxTokens()}
     * cl100k_base tokens by dropping whole entries from the tail. A fact whose validity is not open
     * at both ends says so ({@code (valid 2021-01-01 → 2023-03-01)}, {@code (valid since ...)}, {@code
     * (valid until ...)}); asked at a valid time ({@link BriefRequest#validTime()}), the known facts
     * and the contradictions hold only what was valid then, as {@link #search} filters. Empty (no
     * sections) when there is nothing to be relevant to.
     *
     * @throws NotFoundException when the commit is not on main's first-parent history
     */
    public Brief brief(BriefRequest r) throws NotFoundException {
        Objects.requireNonNull(r, "r");
        if (r.isEmpty()) {
            seq(r.at());
            return new Brief(List.of(), 0, r.maxTokens(), 0);
        }
        return consistent(() -> {
            int seq = seq(r.at());
            Briefs b;
            synchronized (this) {
                open();
                b = briefs;
            }
            return b.brief(r, seq, validities(seq));
        });
    }

    /** Each fact's validity at commit number {@code seq}, succession applied (what {@link Store#factValidAt} tests). */
    private ClaimQueries.Validities validities(int seq) {
        return store.validities(CommitId.of(open().claims().commitAt(seq).name()));
    }

    private int seq(CommitId at) throws NotFoundException {
        ClaimsIndex claims = open().claims();
        if (at == null) {
            return claims.headSeq();
        }
        int known = claims.indexedSeq(ObjectId.fromString(at.hex()));
        if (known >= 0) {
            return known;
        }
        ObjectId c = Commits.require(repo, at);
        int seq = claims.seq(c);
        if (seq < 0) {
            throw new NotFoundException("commit " + at.hex() + " is not on main's history");
        }
        return seq;
    }

    /** Lets the index's running merges finish (without the writer lock: writers go on), so {@link #close} saves them. */
    void finishMerges() {
        SearchIndex open;
        synchronized (this) {
            open = index;
        }
        if (open != null) {
            open.finishMerges();
        }
    }

    /**
     * Saves the index and releases it; the caller holds the writer lock, so the saved index describes
     * main with no forget after it (one seen since it was opened drops it unsaved).
     */
    void close() {
        long g = writer.watch().check();
        synchronized (this) {
            if (index != null) {
                if (g != generation) {
                    scrub();
                } else {
                    index.close();
                }
            }
        }
    }
}
