package dev.palimpsest.internal.claims;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.ClaimResult;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.DeadEnds;
import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.FactId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The claim questions, answered from the {@link ClaimsIndex} at commit number {@code seq}: live
 * claims about an entity, its correction chains, its dead ends and the contradictions among live
 * claims. A claim is live at C when its file is in C's tree and no fact live at C supersedes it.
 * Subjects and predicates are matched by their {@link EntityKey}. Thread-safe (the index is
 * synchronized; answers are fresh lists).
 */
public final class ClaimQueries {
    private static final Comparator<ClaimsIndex.Version> WRITTEN = Comparator
            .<ClaimsIndex.Version>comparingInt(v -> v.from).thenComparing(v -> v.claim.id());

    private final ClaimsIndex index;

    /**
     * The valid time of each claim live at the commit a question is asked at, succession applied:
     * {@code {from, until}} in epoch seconds (open: {@link Long#MIN_VALUE}, {@link Long#MAX_VALUE}),
     * or null when the claim is not live there.
     */
    public interface Validities {
        long[] of(String id);

        /** True when claim or fact {@code id} is live and valid at {@code t} (epoch seconds), by {@link dev.palimpsest.internal.index.PredicateIndex#holdsAt}. */
        default boolean holdsAt(String id, long t) {
            return dev.palimpsest.internal.index.PredicateIndex.holdsAt(of(id), t);
        }
    }

    /** Every claim valid at every instant: what a store without valid time states. */
    public static final Validities ALWAYS = id -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE};

    private static boolean validAt(long[] v, Long t) {
        return t == null || dev.palimpsest.internal.index.PredicateIndex.holdsAt(v, t);
    }

    private static boolean overlap(long[] a, long[] b) {
        return a == null || b == null || a[0] < b[1] && b[0] < a[1];
    }

    public ClaimQueries(ClaimsIndex index) {
        this.index = index;
    }

    public ClaimsIndex index() {
        return index;
    }

    /** Live claims about {@code subject} (any predicate when {@code predicate} is null), oldest first. */
    public List<ClaimView> current(String subject, String predicate, int seq) {
        return current(subject, predicate, seq, ALWAYS, null);
    }

    /**
     * As {@link #current(String, String, int)}, only the claims valid at {@code validAt} (epoch
     * seconds; null: any time) by {@code valid}.
     */
    public List<ClaimView> current(String subject, String predicate, int seq, Validities valid, Long validAt) {
        String p = predicate == null ? null : EntityKey.of(predicate);
        List<ClaimView> out = new ArrayList<>();
        synchronized (index) {
            for (ClaimsIndex.Version v : index.aboutSubject(EntityKey.of(subject))) {
                if (v.liveAt(seq) && (p == null || p.equals(v.claim.predicateKey()))
                        && index.supersessionAt(v.claim.id(), seq) == null
                        && (validAt == null || validAt(valid.of(v.claim.id()), validAt))) {
                    out.add(view(v, seq));
                }
            }
        }
        return out;
    }

    /**
     * Every claim ever made about ({@code subject}, {@code predicate}) up to {@code seq}, each in
     * its version live or last navigable at {@code seq}, oldest first (first written, then id),
     * with what supersedes it.
     */
    public List<ClaimView> chain(String subject, String predicate, int seq) {
        String p = EntityKey.of(predicate);
        List<ClaimsIndex.Version> chain = new ArrayList<>();
        Map<String, Integer> firstWritten = new HashMap<>();
        synchronized (index) {
            List<ClaimsIndex.Version> latest = latestVersions(EntityKey.of(subject), seq);
            for (ClaimsIndex.Version v : index.aboutSubject(EntityKey.of(subject))) {
                if (v.from <= seq) {
                    firstWritten.merge(v.claim.id(), v.from, Math::min);
                }
            }
            for (ClaimsIndex.Version v : latest) {
                if (p.equals(v.claim.predicateKey())) {
                    chain.add(v);
                }
            }
            chain.sort(Comparator.<ClaimsIndex.Version>comparingInt(v -> firstWritten.get(v.claim.id()))
                    .thenComparing(v -> v.claim.id()));
            List<ClaimView> out = new ArrayList<>(chain.size());
            chain.forEach(v -> out.add(view(v, seq)));
            return out;
        }
    }

    /** Superseded or retracted claims about {@code subject} at {@code seq}: newest correction first, at most {@code max}. */
    public DeadEnds deadEnds(String subject, int max, int seq) {
        List<ClaimView> dead = new ArrayList<>();
        Map<ClaimView, Integer> at = new HashMap<>();
        synchronized (index) {
            for (ClaimsIndex.Version v : latestVersions(EntityKey.of(subject), seq)) {
                ClaimView c = view(v, seq);
                if (c.status() != ClaimView.Status.LIVE) {
                    dead.add(c);
                    at.put(c, correction(v, seq));
                }
            }
        }
        dead.sort(Comparator.<ClaimView>comparingInt(c -> -at.get(c)).thenComparing(c -> c.id().value()));
        int keep = Math.min(max, dead.size());
        return new DeadEnds(dead.subList(0, keep), dead.size() - keep);
    }

    /** Groups of live claims with one (subject, predicate) and different objects; one subject when not null. */
    public List<Contradiction> contradictions(String subject, int seq) {
        return contradictions(subject, seq, ALWAYS, null);
    }

    /**
     * As {@link #contradictions(String, int)} in valid time: a claim belongs to its group only
     * when its validity by {@code valid} overlaps that of a claim of the group with another object
     * (a succession closed the earlier claim where the later one starts, so the two do not
     * contradict each other); with {@code validAt} (epoch seconds), only claims valid then count.
     */
    public List<Contradiction> contradictions(String subject, int seq, Validities valid, Long validAt) {
        List<Contradiction> out = new ArrayList<>();
        synchronized (index) {
            Set<String> multi = index.multiValuedAt(seq);
            Iterable<String> subjects = subject == null ? sortedSubjects() : List.of(EntityKey.of(subject));
            for (String s : subjects) {
                Map<String, List<ClaimsIndex.Version>> byPredicate = new LinkedHashMap<>();
                Map<String, long[]> validity = new HashMap<>();
                for (ClaimsIndex.Version v : index.aboutSubject(s)) {
                    if (v.liveAt(seq) && !multi.contains(v.claim.predicateKey())
                            && index.supersessionAt(v.claim.id(), seq) == null) {
                        long[] vv = valid.of(v.claim.id());
                        if (validAt(vv, validAt)) {
                            validity.put(v.claim.id(), vv);
                            byPredicate.computeIfAbsent(v.claim.predicateKey(), k -> new ArrayList<>()).add(v);
                        }
                    }
                }
                List<String> predicates = new ArrayList<>(byPredicate.keySet());
                predicates.sort(null);
                for (String p : predicates) {
                    List<ClaimsIndex.Version> all = byPredicate.get(p);
                    List<ClaimsIndex.Version> vs = new ArrayList<>();
                    for (ClaimsIndex.Version a : all) {
                        for (ClaimsIndex.Version b : all) {
                            if (!a.claim.objectKey().equals(b.claim.objectKey())
                                    && overlap(validity.get(a.claim.id()), validity.get(b.claim.id()))) {
                                vs.add(a);
                                break;
                            }
                        }
                    }
                    if (vs.size() < 2 || vs.stream().map(v -> v.claim.objectKey()).distinct().count() < 2) {
                        continue;
                    }
                    vs.sort(WRITTEN);
                    List<ClaimView> claims = new ArrayList<>(vs.size());
                    vs.forEach(v -> claims.add(view(v, seq)));
                    out.add(new Contradiction(s, p, claims));
                }
            }
        }
        return out;
    }

    /** The live claims at {@code seq} that a claim ({@code subject}, {@code predicate}, {@code object}) would contradict. */
    public List<ClaimResult.Conflict> conflicts(String subject, String predicate, String object, int seq) {
        return conflicts(subject, predicate, object, seq, ALWAYS, null);
    }

    /**
     * As {@link #conflicts(String, String, String, int)}, only the claims whose validity by {@code
     * valid} overlaps {@code validity} (null: always).
     */
    public List<ClaimResult.Conflict> conflicts(String subject, String predicate, String object, int seq,
            Validities valid, long[] validity) {
        String p = EntityKey.of(predicate);
        String o = EntityKey.of(object);
        List<ClaimResult.Conflict> out = new ArrayList<>();
        synchronized (index) {
            if (!index.multiValuedAt(seq).contains(p)) {
                for (ClaimView c : current(subject, predicate, seq)) {
                    if (!EntityKey.of(c.object()).equals(o) && overlap(validity, valid.of(c.id().value()))) {
                        out.add(new ClaimResult.Conflict(c.id(), c.object(), c.source()));
                    }
                }
            }
        }
        return out;
    }

    /**
     * The subject keys that start with {@code prefixKey} and have a live claim at {@code seq}, in key
     * order, at most {@code limit}.
     */
    public List<String> subjects(String prefixKey, int limit, int seq) {
        List<String> out = new ArrayList<>();
        synchronized (index) {
            List<String> matching = new ArrayList<>();
            index.subjects().forEach(s -> {
                if (s.startsWith(prefixKey)) {
                    matching.add(s);
                }
            });
            matching.sort(null);
            for (String s : matching) {
                if (out.size() == limit) {
                    break;
                }
                for (ClaimsIndex.Version v : index.aboutSubject(s)) {
                    if (v.liveAt(seq)) {
                        out.add(s);
                        break;
                    }
                }
            }
        }
        return out;
    }

    private List<String> sortedSubjects() {
        List<String> all = new ArrayList<>();
        index.subjects().forEach(all::add);
        all.sort(null);
        return all;
    }

    /**
     * For each claim written about {@code subjectKey} up to {@code seq}, its latest version there (not
     * moved away), unsorted. The index lists a subject's versions oldest first, so the last one wins.
     */
    private List<ClaimsIndex.Version> latestVersions(String subjectKey, int seq) {
        Map<String, ClaimsIndex.Version> latest = new LinkedHashMap<>();
        for (ClaimsIndex.Version v : index.aboutSubject(subjectKey)) {
            if (v.from <= seq) {
                latest.put(v.claim.id(), v);
            }
        }
        List<ClaimsIndex.Version> out = new ArrayList<>();
        for (ClaimsIndex.Version v : latest.values()) {
            // a version ended at or before seq by a revision was revised into another subject: not about this one now
            if (v.to <= seq && !v.retracted) {
                continue;
            }
            out.add(v);
        }
        return out;
    }

    /** The commit number of {@code v}'s correction at {@code seq}: its retraction, else its supersession. */
    private int correction(ClaimsIndex.Version v, int seq) {
        if (!v.liveAt(seq)) {
            return v.to;
        }
        ClaimsIndex.Sup s = index.supersessionAt(v.claim.id(), seq);
        return s == null ? -1 : s.from;
    }

    private ClaimView view(ClaimsIndex.Version v, int seq) {
        ClaimRecord c = v.claim;
        ClaimView.Status status;
        FactId by = null;
        CommitId corrected = null;
        ClaimsIndex.Sup s = index.supersessionAt(c.id(), seq);
        if (!v.liveAt(seq)) {
            status = ClaimView.Status.RETRACTED;
            corrected = CommitId.of(index.commitAt(v.to).name());
        } else if (s != null) {
            status = ClaimView.Status.SUPERSEDED;
            corrected = CommitId.of(index.commitAt(s.from).name());
        } else {
            status = ClaimView.Status.LIVE;
        }
        if (s != null) {
            by = FactId.of(s.by);
        }
        return new ClaimView(FactId.of(c.id()), c.subject(), c.predicate(), c.object(), FactId.of(c.source()), c.run(),
                c.confidence(), ActorName.of(index.actorAt(v.from)), CommitId.of(index.commitAt(v.from).name()),
                status, by, corrected);
    }
}
