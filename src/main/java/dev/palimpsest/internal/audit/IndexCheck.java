package dev.palimpsest.internal.audit;

import dev.palimpsest.model.Rule;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PersistedIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.model.FactId;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The persisted predicate index agrees with history: for every audited commit the log records,
 * the facts it says the commit changed are exactly those whose files the commit's first-parent
 * diff changes, each written (with that blob) or removed as the diff says. Commits the log does not
 * hold yet are not checked (the index is a cache that may lag). Thread-safe.
 */
public final class IndexCheck implements AuditCheck {
    public static final String PATH = "palimpsest-index/index-v1.log";

    private final PersistedIndex.Contents persisted;
    private final AtomicBoolean disagreed = new AtomicBoolean();

    public IndexCheck(PersistedIndex.Contents persisted) {
        this.persisted = persisted;
    }

    /** True when some audited commit disagreed. */
    public boolean disagreed() {
        return disagreed.get();
    }

    @Override
    public void check(AuditedCommit c) {
        Map<String, FactState> recorded = persisted.byCommit().get(c.id());
        if (recorded == null) {
            return;
        }
        Map<String, Change> changed = new HashMap<>();
        for (Change ch : c.changes()) {
            String p = ch.path();
            FactId id = StorePaths.idFromPath(p);
            if (id != null && StorePaths.FACT_FOLDERS.stream().anyMatch(f -> p.startsWith(f + "/"))) {
                Change prior = changed.get(id.value());
                if (prior == null || ch.present()) {
                    changed.put(id.value(), ch);
                }
            }
        }
        boolean ok = recorded.keySet().equals(changed.keySet());
        for (Map.Entry<String, Change> e : changed.entrySet()) {
            FactState s = recorded.get(e.getKey());
            Change ch = e.getValue();
            ok &= s != null && s.live() == ch.present() && (!ch.present() || Objects.equals(s.blob(), ch.newBlob()));
        }
        if (!ok) {
            disagreed.set(true);
            c.violation(PATH, Rule.INDEX_DISAGREES, "the persisted predicate index records other fact changes for this"
                    + " commit than its tree diff; it is discarded and will be rebuilt");
        }
    }
}
