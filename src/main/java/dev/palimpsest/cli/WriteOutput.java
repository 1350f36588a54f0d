package dev.palimpsest.cli;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.FactId;
import java.util.LinkedHashMap;
import java.util.Map;

/** Prints the outcome of a write command. */
final class WriteOutput {
    private WriteOutput() {}

    static void print(Context ctx, FactId id, CommitResult r) {
        if (ctx.json()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", id.value());
            m.put("commit", r.commit().hex());
            ctx.printJson(m);
        } else {
            ctx.out().println(id + " " + r.commit().hex());
        }
    }
}
