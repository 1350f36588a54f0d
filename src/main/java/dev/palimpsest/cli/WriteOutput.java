package dev.palimpsest.cli;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;

/** Prints the outcome of a write command. */
final class WriteOutput {
    private WriteOutput() {}

    /** The spec of a fact from the options of a write command; {@code id} and {@code confidence} may be absent. */
    static FactSpec spec(Kind kind, String body, FactId id, Double confidence, List<RefSpec> refs) {
        FactSpec spec = FactSpec.of(kind, body).refs(refs);
        if (id != null) {
            spec = spec.id(id);
        }
        return confidence == null ? spec : spec.confidence(confidence);
    }

    static void print(Context ctx, FactId id, CommitResult r) {
        if (ctx.json()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", id.value());
            m.put("commit", r.id().hex());
            ctx.printJson(m);
        } else {
            ctx.out().println(id + " " + r.id().hex());
        }
    }
}
