package dev.palimpsest.internal.search;

import dev.palimpsest.internal.claims.ClaimQueries;
import dev.palimpsest.model.Brief;
import dev.palimpsest.model.Brief.Section;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.EntityKey;
import dev.palimpsest.model.SearchHit;
import dev.palimpsest.model.SearchQuery;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Builds briefs: "Known facts (with provenance)" (the hits of a one-hop search, at most {@link
 * #MAX_FACTS}; a hop-1 fact tagged "(related via X)", X its parent's subject; the turns before and
 * after a direct hit that is one part of a longer source ({@link Turns}), tagged "(context)"),
 * "Contradictions" (live claims about the named entities and the direct hits' subjects that
 * disagree, their validity overlapping) and "Superseded or retracted" (their dead ends: most
 * relevant to the query first when there is one, else newest correction first; capped, with a line
 * counting the rest). A known fact whose validity at the commit (succession applied) is not open at
 * both ends says so after its statement: {@code (valid FROM → UNTIL)}, {@code (valid since FROM)} or
 * {@code (valid until UNTIL)}, a bound at midnight UTC written as its date. A brief asked at a valid
 * time ({@link BriefRequest#validTime()}) lists only the facts, context turns and contradicting
 * claims valid then.
 *
 * <p>Provenance is said once: the brief opens with the commit it is made at ({@code - as of commit
 * C, written DAY by A (cite a fact as ID@commit)}), at which every fact listed is live, so {@code
 * ID@C} pins the version shown (a retracted dead end, no longer live there, is listed as {@code
 * ID@V}, V its last version's commit); the facts and dead ends written on one day (UTC) by one actor
 * in one run, citing one first source, stand under one header line ({@code - DAY by A, run R,
 * source S:}; the day and the actor are said in the opening line instead when every line of the
 * brief shares them), each as {@code   - ID: statement}. Fitted by {@link BriefFit} with {@link Tokens} in this priority:
 * the first known fact, the first contradiction, the first dead end (a tight budget keeps one of
 * each), the other known facts, contradictions and dead ends, then the context turns. Thread-safe.
 */
public final class Briefs {
    /** The most known facts a brief lists before fitting. */
    public static final int MAX_FACTS = 50;
    /** The most direct hits whose neighbouring turns a brief adds as context. */
    public static final int MAX_CONTEXT_HITS = 10;

    private static final int KNOWN = 0;
    private static final int CONTRA = 1;
    private static final int DEAD = 2;
    private static final List<String> NAMES = List.of(Brief.KNOWN, Brief.CONTRADICTIONS, Brief.DEAD_ENDS);

    private final Ranker ranker;
    private final ClaimQueries claims;
    private final SearchIndex index;
    private final Turns turns;

    public Briefs(Ranker ranker, ClaimQueries claims, SearchIndex index) {
        this.ranker = ranker;
        this.claims = claims;
        this.index = index;
        this.turns = new Turns(index);
    }

    /** Who wrote a version, on which day, in which run, citing which source: said once for every line of its group. */
    private record Prov(String day, String actor, String run, String source) {
        Prov(Instant time, String actor, String run, String source) {
            this(time.truncatedTo(ChronoUnit.DAYS).toString().substring(0, 10), actor, run, source);
        }

        /** The group's header line, without the day and actor when every group of the brief shares them ({@code common}). */
        String header(boolean commonDay, boolean commonActor) {
            List<String> parts = new ArrayList<>(4);
            if (!commonDay) {
                parts.add(commonActor ? day : day + " by " + actor);
            } else if (!commonActor) {
                parts.add("by " + actor);
            }
            if (run != null) {
                parts.add("run " + run);
            }
            if (source != null) {
                parts.add("source " + source);
            }
            return parts.isEmpty() ? "- no run, no source:" : "- " + String.join(", ", parts) + ":";
        }
    }

    /**
     * One entry of the brief: its section, its place there ({@code order}), its group's provenance
     * (null: a line of its own) and its text.
     */
    private record Entry(int section, double order, Prov prov, String text) {}

    /**
     * The brief of {@code r} at commit number {@code seq}, each fact's validity there (succession
     * applied) taken from {@code valid}.
     */
    public Brief brief(BriefRequest r, int seq, ClaimQueries.Validities valid) {
        SearchQuery.Builder b = SearchQuery.builder().entities(r.entities()).limit(MAX_FACTS);
        String query = r.query() == null ? "" : r.query();
        if (!query.isBlank()) {
            b.text(query);
        }
        r.validTime().ifPresent(b::validAt);
        Long validAt = r.validTime().map(Instant::getEpochSecond).orElse(null);
        List<Ranker.Found> found = ranker.search(b.build(), seq, valid);
        List<Entry> known = new ArrayList<>();
        Map<String, String> subjects = new LinkedHashMap<>();
        for (String e : r.entities()) {
            if (!EntityKey.of(e).isEmpty()) {
                subjects.putIfAbsent(EntityKey.of(e), e);
            }
        }
        Set<String> shown = new HashSet<>();
        for (Ranker.Found f : found) {
            shown.add(f.hit().id().value());
        }
        List<Entry> context = new ArrayList<>();
        Map<String, Double> wanted = new LinkedHashMap<>();
        int direct = 0;
        for (int i = 0; i < found.size(); i++) {
            SearchHit h = found.get(i).hit();
            double order = i * 3 + 1;
            known.add(new Entry(KNOWN, order, prov(h), member(h.id().value(), statement(h),
                    validity(valid.of(h.id().value())) + (h.hops() > 0 ? " (related via " + oneLine(found.get(i).link())
                            + ")" : ""))));
            if (h.hops() == 0) {
                if (h.hasTriple()) {
                    subjects.putIfAbsent(EntityKey.of(h.subject()), h.subject());
                }
                if (direct++ < MAX_CONTEXT_HITS) {
                    Turns.step(h.id().value(), -1).filter(shown::add).ifPresent(id -> wanted.put(id, order - 1));
                    Turns.step(h.id().value(), 1).filter(shown::add).ifPresent(id -> wanted.put(id, order + 1));
                }
            }
        }
        Map<String, Document> read = turns.read(wanted.keySet(), seq);
        for (Map.Entry<String, Double> w : wanted.entrySet()) {
            Document d = read.get(w.getKey());
            long[] v = d == null ? null : valid.of(w.getKey());
            if (d != null && (validAt == null || dev.palimpsest.internal.index.PredicateIndex.holdsAt(v, validAt))) {
                context.add(new Entry(KNOWN, w.getValue(), prov(d), member(w.getKey() + " (context)", statement(d),
                        validity(v))));
            }
        }
        List<Entry> contra = new ArrayList<>();
        Set<String> seenGroups = new LinkedHashSet<>();
        List<ClaimView> dead = new ArrayList<>();
        Set<String> seenDead = new LinkedHashSet<>();
        for (String subject : subjects.values()) {
            for (Contradiction c : claims.contradictions(subject, seq, valid, validAt)) {
                if (seenGroups.add(c.subject() + "\u0000" + c.predicate())) {
                    contra.add(new Entry(CONTRA, contra.size(), null, contradiction(c)));
                }
            }
            for (ClaimView v : claims.deadEnds(subject, Integer.MAX_VALUE, seq).kept()) {
                if (seenDead.add(v.id().value())) {
                    dead.add(v);
                }
            }
        }
        dead.sort(Comparator.<ClaimView>comparingInt(v -> -seqOf(v.correctedAt())).thenComparing(v -> v.id().value()));
        dead = Relevance.rank(dead, v -> v.subject() + " " + v.predicate() + " " + v.object(), query);
        List<Entry> deadLines = new ArrayList<>();
        for (ClaimView v : dead.subList(0, Math.min(dead.size(), r.maxDeadEnds()))) {
            deadLines.add(new Entry(DEAD, deadLines.size(), prov(v), deadEnd(v)));
        }
        int rest = dead.size() - deadLines.size();
        if (rest > 0) {
            deadLines.add(new Entry(DEAD, Integer.MAX_VALUE, null, "- (+" + rest + (query.isBlank() ? " older" : " less relevant")
                    + (rest == 1 ? " correction" : " corrections") + " omitted)"));
        }
        List<Entry> priority = new ArrayList<>();
        for (List<Entry> head : List.of(known, contra, deadLines)) {
            if (!head.isEmpty()) {
                priority.add(head.get(0));
            }
        }
        for (List<Entry> tail : List.of(known, contra, deadLines)) {
            if (tail.size() > 1) {
                priority.addAll(tail.subList(1, tail.size()));
            }
        }
        priority.addAll(context);
        String asOf = "- as of commit " + shortHex(index.claims().commitAt(seq).name());
        return BriefFit.fit(new BriefFit.Layout() {
            @Override
            public int size() {
                return priority.size();
            }

            @Override
            public List<Section> render(int keep) {
                return Briefs.render(priority.subList(0, keep), asOf);
            }
        }, r.maxTokens(), Tokens::count);
    }

    /**
     * The sections of {@code entries}: each in its place, grouped under its provenance's header in
     * order of first place; the first section opens with {@code asOf}.
     */
    private static List<Section> render(List<Entry> entries, String asOf) {
        Set<String> days = new HashSet<>();
        Set<String> actors = new HashSet<>();
        for (Entry e : entries) {
            if (e.prov() != null) {
                days.add(e.prov().day());
                actors.add(e.prov().actor());
            }
        }
        boolean commonDay = days.size() == 1;
        boolean commonActor = actors.size() == 1;
        StringBuilder opening = new StringBuilder(asOf);
        if (commonDay) {
            opening.append(", written ").append(days.iterator().next());
        }
        if (commonActor) {
            opening.append(commonDay ? " by " : ", by ").append(actors.iterator().next());
        }
        opening.append(" (cite a fact as ID@commit)");
        List<Section> out = new ArrayList<>();
        for (int section = KNOWN; section <= DEAD; section++) {
            List<Entry> here = new ArrayList<>();
            for (Entry e : entries) {
                if (e.section() == section) {
                    here.add(e);
                }
            }
            if (here.isEmpty()) {
                continue;
            }
            here.sort(Comparator.comparingDouble(Entry::order));
            Map<Prov, List<String>> groups = new LinkedHashMap<>();
            List<String> alone = new ArrayList<>();
            for (Entry e : here) {
                if (e.prov() == null) {
                    alone.add(e.text());
                } else {
                    groups.computeIfAbsent(e.prov(), p -> new ArrayList<>()).add(e.text());
                }
            }
            List<String> lines = new ArrayList<>();
            if (out.isEmpty()) {
                lines.add(opening.toString());
            }
            groups.forEach((p, members) -> {
                lines.add(p.header(commonDay, commonActor));
                lines.addAll(members);
            });
            lines.addAll(alone);
            out.add(new Section(NAMES.get(section), lines));
        }
        return out;
    }

    private int seqOf(CommitId c) {
        return c == null ? -1 : index.claims().indexedSeq(ObjectId.fromString(c.hex()));
    }

    private static Prov prov(SearchHit h) {
        return new Prov(h.time(), h.actor().value(), h.run(), h.source() == null ? null : h.source().value());
    }

    private static Prov prov(Document d) {
        return new Prov(Instant.ofEpochMilli(d.getField(FactDocs.TIME).numericValue().longValue()), d.get(FactDocs.ACTOR),
                d.get(FactDocs.RUN), d.get(FactDocs.SOURCE));
    }

    private Prov prov(ClaimView v) {
        Instant t = Instant.ofEpochMilli(index.timeOf(ObjectId.fromString(v.commit().hex())));
        return new Prov(t, v.actor().value(), v.run(), v.source().value());
    }

    /**
     * A validity ({@code {from, until}} in epoch seconds; null: none known) as a brief states it: empty
     * when open at both ends, else {@code " (valid FROM → UNTIL)"}, {@code " (valid since FROM)"} or
     * {@code " (valid until UNTIL)"}.
     */
    static String validity(long[] v) {
        if (v == null || v[0] == Long.MIN_VALUE && v[1] == Long.MAX_VALUE) {
            return "";
        }
        if (v[0] == Long.MIN_VALUE) {
            return " (valid until " + instant(v[1]) + ")";
        }
        return v[1] == Long.MAX_VALUE ? " (valid since " + instant(v[0]) + ")"
                : " (valid " + instant(v[0]) + " → " + instant(v[1]) + ")";
    }

    /** An instant of valid time, its date alone when it is midnight UTC. */
    private static String instant(long epochSecond) {
        java.time.OffsetDateTime t = Instant.ofEpochSecond(epochSecond).atOffset(java.time.ZoneOffset.UTC);
        return t.toLocalTime().equals(java.time.LocalTime.MIDNIGHT) ? t.toLocalDate().toString()
                : t.toInstant().toString();
    }

    private static String member(String label, String statement, String tag) {
        return "  - " + label + ": " + statement + tag;
    }

    private static String statement(SearchHit h) {
        if (h.hasTriple()) {
            return oneLine(h.subject() + " " + h.predicate() + " " + h.object());
        }
        return oneLine(h.body());
    }

    private static String statement(Document d) {
        if (d.get(FactDocs.PREDICATE) != null) {
            return oneLine(d.get(FactDocs.SUBJECT) + " " + d.get(FactDocs.PREDICATE) + " " + d.get(FactDocs.OBJECT));
        }
        return oneLine(d.get(FactDocs.BODY));
    }

    private static String contradiction(Contradiction c) {
        ClaimView first = c.claims().get(0);
        StringBuilder b = new StringBuilder("- ").append(oneLine(first.subject())).append(' ')
                .append(oneLine(first.predicate())).append(':');
        String sep = " ";
        for (ClaimView v : c.claims()) {
            b.append(sep).append('\'').append(oneLine(v.object())).append("' (").append(v.id().value())
                    .append(", source ").append(v.source().value()).append(')');
            sep = " | ";
        }
        return b.toString();
    }

    /** A dead end's line: a retracted claim, no longer live at the brief's commit, is pinned at its last version. */
    private static String deadEnd(ClaimView v) {
        String triple = oneLine(v.subject() + " " + v.predicate() + " " + v.object());
        if (v.status() == ClaimView.Status.SUPERSEDED) {
            return member(v.id().value(), triple, " (superseded by " + v.supersededBy().value() + ")");
        }
        return member(v.id().value() + "@" + shortId(v.commit()), triple, " (retracted at " + shortId(v.correctedAt()) + ")");
    }

    private static String shortId(CommitId c) {
        return c == null ? "?" : shortHex(c.hex());
    }

    private static String shortHex(String hex) {
        return hex.substring(0, 12);
    }

    /** Whitespace runs (newlines included) as one space, so an entry is one line. */
    static String oneLine(String s) {
        return s.strip().replaceAll("\\s+", " ");
    }
}
