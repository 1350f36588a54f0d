package dev.palimpsest.wire;

import dev.palimpsest.model.ExpireReport;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.ForgetReport;
import dev.palimpsest.model.UnlearnReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON objects of forget, expire and unlearn-check, as insertion-ordered maps for a JSON mapper:
 * the same fields, in the same order, through the CLI and the MCP server. Stateless; arguments must
 * not be null.
 */
public final class ErasureWire {
    private ErasureWire() {}

    /** {@code commit} (null on a dry run), {@code forgotten}, {@code closure}, {@code review}. */
    public static Map<String, Object> forget(ForgetReport r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("commit", r.commit() == null ? null : r.commit().hex());
        m.put("forgotten", ids(r.forgotten()));
        m.put("closure", ids(r.closure()));
        m.put("review", ids(r.review()));
        return m;
    }

    /** {@code commit} (null on a dry run or when nothing expired), {@code forgotten}: a list of {@code id}, {@code deadline}. */
    public static Map<String, Object> expire(ExpireReport r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("commit", r.commit() == null ? null : r.commit().hex());
        m.put("forgotten", r.forgotten().stream().map(e -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("id", e.id().value());
            x.put("deadline", e.deadline().toString());
            return x;
        }).toList());
        return m;
    }

    /** {@code derivations}, {@code readable}. */
    public static Map<String, Object> unlearnCheck(UnlearnReport r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("derivations", ids(r.derivations()));
        m.put("readable", ids(r.readable()));
        m.put("caches", r.caches());
        return m;
    }

    /** The ids' values, in order. */
    public static List<String> ids(List<FactId> ids) {
        return ids.stream().map(FactId::value).toList();
    }
}
