package dev.palimpsest.cli;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.RefSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The {@code --ref TARGET[@COMMIT]} and {@code --quote TARGET=TEXT} options, turned into ref specs. */
final class RefOptions {
    @Option(names = "--ref", paramLabel = "TARGET[@COMMIT]",
            description = "Cite TARGET as read at COMMIT (default: the commit the write lands on). Repeatable.")
    List<String> refs = new ArrayList<>();

    @Option(names = "--quote", paramLabel = "TARGET=TEXT",
            description = "A verbatim quote (12+ characters) from the cited TARGET. Repeatable.")
    List<String> quotes = new ArrayList<>();

    List<RefSpec> specs(Store store) throws NotFoundException {
        Map<FactId, String> quoteBy = new LinkedHashMap<>();
        for (String q : quotes) {
            int eq = q.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--quote '" + q + "' must be TARGET=TEXT");
            }
            quoteBy.put(FactId.of(q.substring(0, eq)), q.substring(eq + 1));
        }
        List<RefSpec> out = new ArrayList<>();
        for (String r : refs) {
            int at = r.indexOf('@');
            FactId target = FactId.of(at < 0 ? r : r.substring(0, at));
            CommitId pin = at < 0 ? null : store.resolve(r.substring(at + 1));
            out.add(new RefSpec(target, pin, RefRole.CITES, quoteBy.remove(target)));
        }
        if (!quoteBy.isEmpty()) {
            throw new IllegalArgumentException("--quote names " + quoteBy.keySet() + " but no --ref cites it");
        }
        return out;
    }
}
