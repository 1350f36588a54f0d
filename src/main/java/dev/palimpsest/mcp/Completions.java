package dev.palimpsest.mcp;

import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.HistoryEntry;
import dev.palimpsest.model.LogEntry;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RejectedException;
import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult.CompleteCompletion;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Completions ({@code completion/complete}) of the prompts' and fact resources' arguments, prefix
 * matched at main's tip: {@code entity} to the keys of entities with a live claim, {@code source}
 * and {@code id} to the ids of live facts, {@code commit} to the commits of the fact named by
 * {@code id} (newest first) or else of main. At most {@value #MAX} values, with {@code hasMore}
 * when there are more; an argument without completions gets none. Stateless.
 */
final class Completions {
    /** The most values one answer holds (the protocol's limit). */
    static final int MAX = 100;
    /** How many of main's newest commits a commit completes among when no fact is named. */
    static final int RECENT_COMMITS = 1000;

    private Completions() {}

    static List<SyncCompletionSpecification> all(Session s) {
        List<SyncCompletionSpecification> out = new ArrayList<>();
        for (String prompt : List.of(Prompts.RECALL, Prompts.RECORD)) {
            out.add(new SyncCompletionSpecification(new McpSchema.PromptReference(prompt),
                    (ex, req) -> complete(s, req)));
        }
        for (String template : List.of(FactResources.LATEST, FactResources.PINNED)) {
            out.add(new SyncCompletionSpecification(new McpSchema.ResourceReference(template),
                    (ex, req) -> complete(s, req)));
        }
        return out;
    }

    static CompleteResult complete(Session s, McpSchema.CompleteRequest req) {
        String name = req.argument().name();
        String prefix = req.argument().value() == null ? "" : req.argument().value();
        Map<String, String> context = req.context() == null || req.context().arguments() == null ? Map.of()
                : req.context().arguments();
        try {
            CommitId head = s.store().head();
            List<String> values = switch (name) {
                case "entity" -> s.store().claims().entities(prefix, MAX + 1, head);
                case "id", "source" -> s.store().factIds(prefix.toLowerCase(Locale.ROOT), MAX + 1, head).stream()
                        .map(FactId::value).toList();
                case "commit" -> commits(s, prefix.toLowerCase(Locale.ROOT), context.get("id"));
                default -> List.of();
            };
            return result(values);
        } catch (NotFoundException | RejectedException e) {
            return result(List.of()); // nothing to complete in a fact never written, or an id that cannot be one
        } catch (Exception | Error e) {
            throw FactResources.failure(e);
        }
    }

    private static List<String> commits(Session s, String prefix, String fact) throws NotFoundException,
            RejectedException {
        Set<String> all = new LinkedHashSet<>();
        FactId id = fact == null ? null : Args.parse("id", fact, FactId::of);
        if (id != null) {
            for (HistoryEntry h : s.store().history(id)) {
                all.add(h.commit().hex());
            }
        } else {
            for (LogEntry e : s.store().log(RECENT_COMMITS)) {
                all.add(e.commit().hex());
            }
        }
        List<String> out = new ArrayList<>();
        for (String c : all) {
            if (c.startsWith(prefix) && out.size() <= MAX) {
                out.add(c);
            }
        }
        return out;
    }

    /** The first {@value #MAX} of {@code values}, with hasMore when there were more (then no total). */
    private static CompleteResult result(List<String> values) {
        boolean more = values.size() > MAX;
        List<String> kept = more ? values.subList(0, MAX) : values;
        return new CompleteResult(new CompleteCompletion(List.copyOf(kept), more ? null : kept.size(), more));
    }
}
