package dev.palimpsest.internal.search;

import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.document.Document;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.util.BytesRef;

/**
 * The parts of a longer source: a fact whose id is {@code STEM.N} or {@code STEM.LABELN} ({@code
 * N} a decimal number, {@code LABEL} letters and an optional {@code -} or {@code _}: {@code chat-7.12},
 * {@code chat-7.turn-12}, {@code chat-7.t012}) is part N of the source {@code STEM}; the turn before it is part N-1 and the turn after
 * it N+1, with the same label and, when N has leading zeros, the same width. Reads those turns from
 * the search index as of a commit. Thread-safe.
 */
final class Turns {
    private static final Pattern PART = Pattern.compile("(.+\\.[a-z]*[-_]?)(\\d{1,9})");

    private final SearchIndex index;

    Turns(SearchIndex index) {
        this.index = index;
    }

    /** The ids of the turns before and after the fact {@code id}, in that order; empty when it is no part. */
    static List<String> around(String id) {
        Optional<String> before = step(id, -1);
        Optional<String> after = step(id, 1);
        List<String> out = new ArrayList<>(2);
        before.ifPresent(out::add);
        after.ifPresent(out::add);
        return out;
    }

    /** The id of the part {@code delta} away from {@code id}, when it is a part and that part can exist. */
    static Optional<String> step(String id, int delta) {
        Matcher m = PART.matcher(id);
        if (!m.matches()) {
            return Optional.empty();
        }
        String digits = m.group(2);
        long n = Long.parseLong(digits) + delta;
        if (n < 0) {
            return Optional.empty();
        }
        String num = Long.toString(n);
        if (digits.length() > 1 && digits.charAt(0) == '0' && num.length() < digits.length()) {
            num = "0".repeat(digits.length() - num.length()) + num;
        }
        String other = m.group(1) + num;
        return other.length() > 80 ? Optional.empty() : Optional.of(other);
    }

    /** The facts among {@code ids} live at commit number {@code seq}, by id. */
    Map<String, Document> read(Collection<String> ids, int seq) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        IndexSearcher s;
        try {
            s = index.acquire(seq);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read the search index: " + e.getMessage(), e);
        }
        try {
            List<BytesRef> terms = new ArrayList<>();
            ids.forEach(i -> terms.add(new BytesRef(i)));
            BooleanQuery q = new BooleanQuery.Builder()
                    .add(new TermInSetQuery(FactDocs.ID, terms), Occur.MUST)
                    .add(index.live().at(seq), Occur.FILTER)
                    .build();
            Map<String, Document> out = new HashMap<>();
            for (ScoreDoc sd : s.search(q, ids.size() + 1).scoreDocs) {
                Document d = s.storedFields().document(sd.doc);
                out.put(d.get(FactDocs.ID), d);
            }
            return out;
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read the search index: " + e.getMessage(), e);
        } finally {
            try {
                index.release(s);
            } catch (IOException ignored) {
                // released
            }
        }
    }
}
