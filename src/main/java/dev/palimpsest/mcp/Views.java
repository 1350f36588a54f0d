package dev.palimpsest.mcp;

import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.Dependent;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.InboundRef;
import dev.palimpsest.model.LogEntry;
import dev.palimpsest.model.ProvenanceNode;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefStatus;
import dev.palimpsest.model.ReviewItem;
import dev.palimpsest.model.StoredFile;
import dev.palimpsest.model.Trailer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns model records into the ordered maps a tool returns as structured content, which Jackson
 * serialises; field names and values are those of the CLI's {@code --json} output (README, "JSON").
 * Stateless.
 */
final class Views {
    private Views() {}

    static Map<String, Object> fact(Fact f, FactVersion v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", f.id().value());
        m.put("kind", f.kind().value());
        m.put("body", f.body());
        if (f.confidence() != null) {
            m.put("confidence", f.confidence());
        }
        List<Map<String, Object>> refs = new ArrayList<>();
        for (Ref r : f.refs()) {
            Map<String, Object> rm = new LinkedHashMap<>();
            rm.put("id", r.id().value());
            rm.put("role", r.role().value());
            rm.put("commit", r.commit() == null ? v.commit().hex() : r.commit().hex());
            rm.put("blob", r.blob() == null ? null : r.blob().hex());
            rm.put("same_transaction", r.sameTransaction());
            if (r.quote() != null) {
                rm.put("quote", r.quote());
            }
            refs.add(rm);
        }
        m.put("refs", refs);
        m.put("commit", v.commit().hex());
        m.put("blob", v.blob().hex());
        return m;
    }

    static Map<String, Object> history(HistoryEntry h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("commit", h.commit().hex());
        m.put("change", h.change().value());
        m.put("blob", h.blob() == null ? null : h.blob().hex());
        m.put("actor", h.actor().value());
        m.put("time", h.time().toString());
        return m;
    }

    static Map<String, Object> log(LogEntry e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("commit", e.commit().hex());
        m.put("parents", e.parents().stream().map(CommitId::hex).toList());
        m.put("actor", e.actor());
        m.put("time", e.time().toString());
        m.put("subject", e.subject());
        List<Map<String, String>> ts = new ArrayList<>();
        for (Trailer t : e.trailers()) {
            Map<String, String> tm = new LinkedHashMap<>();
            tm.put("key", t.key());
            tm.put("value", t.value());
            ts.add(tm);
        }
        m.put("trailers", ts);
        return m;
    }

    static Map<String, Object> inbound(InboundRef i) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("referrer", i.referrer().value());
        m.put("referrer_commit", i.referrerVersion().hex());
        m.put("role", i.role().value());
        m.put("pinned_commit", i.pinnedCommit().hex());
        m.put("pinned_blob", i.pinnedBlob() == null ? null : i.pinnedBlob().hex());
        m.put("live", i.live());
        return m;
    }

    static Map<String, Object> stale(RefStatus r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", r.target().value());
        m.put("role", r.role().value());
        m.put("status", r.status().name().toLowerCase(Locale.ROOT));
        m.put("pinned_commit", r.pinned().hex());
        m.put("current_commit", r.current() == null ? null : r.current().hex());
        m.put("superseded_by", r.by() == null ? null : r.by().value());
        return m;
    }

    static Map<String, Object> dependent(Dependent d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", d.id().value());
        m.put("depth", d.depth());
        m.put("via", d.via().value());
        m.put("live", d.live());
        return m;
    }

    static Map<String, Object> provenance(ProvenanceNode n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", n.id().value());
        m.put("role", n.role() == null ? null : n.role().value());
        m.put("kind", n.kind());
        m.put("version", n.version().hex());
        m.put("blob", n.blob() == null ? null : n.blob().hex());
        m.put("status", n.status().word());
        m.put("forgotten_at", n.forgottenAt() == null ? null : n.forgottenAt().hex());
        m.put("actor", n.actor());
        m.put("run", n.run());
        m.put("cycle", n.cycle());
        m.put("children", n.children().stream().map(Views::provenance).toList());
        return m;
    }

    /** A claim as {@code current} lists it; {@code full} adds actor, status and correction (chain, dead ends). */
    static Map<String, Object> claim(ClaimView c, boolean full) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.id().value());
        m.put("subject", c.subject());
        m.put("predicate", c.predicate());
        m.put("object", c.object());
        m.put("source", c.source().value());
        m.put("run", c.run());
        if (full) {
            m.put("actor", c.actor().value());
        }
        m.put("commit", c.commit().hex());
        if (full) {
            m.put("status", c.status().label());
            m.put("superseded_by", c.supersededBy() == null ? null : c.supersededBy().value());
            m.put("corrected_at", c.correctedAt() == null ? null : c.correctedAt().hex());
        }
        return m;
    }

    static Map<String, Object> contradiction(Contradiction g) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("subject", g.subject());
        m.put("predicate", g.predicate());
        List<Map<String, Object>> cs = new ArrayList<>();
        for (ClaimView v : g.claims()) {
            Map<String, Object> cm = new LinkedHashMap<>();
            cm.put("id", v.id().value());
            cm.put("object", v.object());
            cs.add(cm);
        }
        m.put("claims", cs);
        return m;
    }

    /** A withdrawal plan (README: the {@code retract-source} fields); {@code commit} null on a dry run. */
    static Map<String, Object> plan(CleanupPlan p, CommitId commit) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", p.at().hex());
        m.put("operation", p.operation().value());
        m.put("targets", p.targets());
        m.put("reason", p.reason());
        m.put("policy", p.policy().value());
        m.put("roots", ids(p.roots()));
        m.put("removals", p.removals().stream().map(r -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("id", r.id().value());
            x.put("layer", r.layer().value());
            x.put("why", r.why());
            return x;
        }).toList());
        m.put("revisions", p.revisions().stream().map(r -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("id", r.id().value());
            x.put("dropped", r.dropped());
            x.put("kept", r.kept());
            return x;
        }).toList());
        m.put("touched", ids(p.touched()));
        m.put("dry_run", commit == null);
        m.put("commit", commit == null ? null : commit.hex());
        return m;
    }

    static Map<String, Object> review(ReviewItem i) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", i.id().value());
        m.put("layer", i.layer());
        m.put("reason", i.reason().value());
        m.put("version", i.version().hex());
        m.put("details", i.details());
        return m;
    }

    static Map<String, Object> storedFile(StoredFile f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", f.id().value());
        m.put("name", f.name());
        m.put("sha256", f.sha256());
        m.put("media_type", f.mediaType());
        m.put("commit", f.commit().hex());
        return m;
    }

    static List<String> ids(List<FactId> ids) {
        return ids.stream().map(FactId::value).toList();
    }

    /** One field holding a list: tools return objects, so a list answer is wrapped under a name. */
    static Map<String, Object> listOf(String field, List<?> items) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(field, items);
        return m;
    }
}
