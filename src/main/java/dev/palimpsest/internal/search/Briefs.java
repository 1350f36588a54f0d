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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Builds briefs: "Known facts (with provenance)" (the hits of a one-hop search, at most {@link
 * #MAX_FACTS}; a hop-1 fact tagged "(related via X)", X its parent's subject), "Contradictions"
 * (live claims about the named entities and the direct hits' subjects that disagree) and
 * "Superseded or retracted" (their dead ends, newest correction first, capped, with a line counting
 * the older ones left out), in that priority, provenance on every line, fitted by {@link BriefFit}
 * with {@link Tokens}. Thread-safe.
 */
public final class Briefs {
    /** The most known facts a brief lists before fitting. */
    public static final int MAX_FACTS = 50;

    private final Ranker ranker;
    private final ClaimQueries claims;
    private final SearchIndex index;

    public Briefs(Ranker ranker, ClaimQueries claims, SearchIndex index) {
        this.ranker = ranker;
        this.claims = claims;
        this.index = index;
    }

    /** The brief of {@code r} at commit number {@code seq}. */
    public Brief brief(BriefRequest r, int seq) {
        SearchQuery.Builder b = SearchQuery.builder().entities(r.entities()).limit(MAX_FACTS);
        if (r.query() != null) {
            b.text(r.query());
        }
        SearchQuery q = b.build();
        List<Ranker.Found> found = ranker.search(q, seq);
        List<String> known = new ArrayList<>();
        Map<String, String> subjects = new LinkedHashMap<>();
        for (String e : r.entities()) {
            if (!EntityKey.of(e).isEmpty()) {
                subjects.putIfAbsent(EntityKey.of(e), e);
            }
        }
        for (Ranker.Found f : found) {
            SearchHit h = f.hit();
            known.add(line(h, f.link()));
            if (h.hops() == 0 && h.hasTriple()) {
                subjects.putIfAbsent(EntityKey.of(h.subject()), h.subject());
            }
        }
        List<String> contra = new ArrayList<>();
        Set<String> seenGroups = new LinkedHashSet<>();
        List<ClaimView> dead = new ArrayList<>();
        Set<String> seenDead = new LinkedHashSet<>();
        for (String subject : subjects.values()) {
            for (Contradiction c : claims.contradictions(subject, seq)) {
                if (seenGroups.add(c.subject() + "\u0000" + c.predicate())) {
                    contra.add(contradiction(c));
                }
            }
            for (ClaimView v : claims.deadEnds(subject, Integer.MAX_VALUE, seq).kept()) {
                if (seenDead.add(v.id().value())) {
                    dead.add(v);
                }
            }
        }
        dead.sort(Comparator.<ClaimView>comparingInt(v -> -seqOf(v.correctedAt())).thenComparing(v -> v.id().value()));
        List<String> deadLines = new ArrayList<>();
        for (ClaimView v : dead.subList(0, Math.min(dead.size(), r.maxDeadEnds()))) {
            deadLines.add(deadEnd(v));
        }
        int older = dead.size() - deadLines.size();
        if (older > 0) {
            deadLines.add("- (+" + older + (older == 1 ? " older correction" : " older corrections") + " omitted)");
        }
        List<Section> sections = new ArrayList<>();
        if (!known.isEmpty()) {
            sections.add(new Section(Brief.KNOWN, known));
        }
        if (!contra.isEmpty()) {
            sections.add(new Section(Brief.CONTRADICTIONS, contra));
        }
        if (!deadLines.isEmpty()) {
            sections.add(new Section(Brief.DEAD_ENDS, deadLines));
        }
        return BriefFit.fit(sections, r.maxTokens(), Tokens::count);
    }

    private int seqOf(CommitId c) {
        return c == null ? -1 : index.claims().indexedSeq(ObjectId.fromString(c.hex()));
    }

    private static String line(SearchHit h, String link) {
        StringBuilder b = new StringBuilder("- ").append(statement(h)).append(" [");
        if (h.source() != null) {
            b.append("source: ").append(h.source().value()).append('@').append(shortId(h.sourceCommit())).append(", ");
        }
        b.append("actor: ").append(h.actor().value());
        if (h.run() != null) {
            b.append(", run: ").append(h.run());
        }
        b.append(", time: ").append(h.time().truncatedTo(ChronoUnit.SECONDS)).append(']');
        if (h.hops() > 0) {
            b.append(" (related via ").append(oneLine(link)).append(')');
        }
        return b.toString();
    }

    private static String statement(SearchHit h) {
        if (h.hasTriple()) {
            return oneLine(h.subject() + " " + h.predicate() + " " + h.object());
        }
        return oneLine(h.body());
    }

    private String contradiction(Contradiction c) {
        ClaimView first = c.claims().get(0);
        StringBuilder b = new StringBuilder("- ").append(oneLine(first.subject())).append(' ')
                .append(oneLine(first.predicate())).append(':');
        String sep = " ";
        for (ClaimView v : c.claims()) {
            b.append(sep).append('\'').append(oneLine(v.object())).append("' (").append(v.id().value())
                    .append(", source: ").append(v.source().value()).append(", ").append(provenance(v)).append(')');
            sep = " | ";
        }
        return b.toString();
    }

    private String deadEnd(ClaimView v) {
        StringBuilder b = new StringBuilder("- ").append(oneLine(v.subject() + " " + v.predicate() + " " + v.object()));
        if (v.status() == ClaimView.Status.SUPERSEDED) {
            b.append(" (superseded by ").append(v.supersededBy().value());
        } else {
            b.append(" (retracted");
        }
        b.append(" at ").append(shortId(v.correctedAt())).append(") [source: ").append(v.source().value())
                .append(", ").append(provenance(v)).append(']');
        return b.toString();
    }

    private String provenance(ClaimView v) {
        StringBuilder b = new StringBuilder("actor: ").append(v.actor().value());
        if (v.run() != null) {
            b.append(", run: ").append(v.run());
        }
        Instant t = Instant.ofEpochMilli(index.timeOf(ObjectId.fromString(v.commit().hex())));
        b.append(", commit: ").append(shortId(v.commit())).append(", time: ").append(t.truncatedTo(ChronoUnit.SECONDS));
        return b.toString();
    }

    private static String shortId(CommitId c) {
        return c == null ? "?" : c.hex().substring(0, 12);
    }

    /** Whitespace runs (newlines included) as one space, so an entry is one line. */
    static String oneLine(String s) {
        return s.strip().replaceAll("\\s+", " ");
    }
}
