package dev.palimpsest.mcp;

import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code refs} ({@code TARGET[@COMMIT]}) and {@code quotes} ({@code {TARGET: text}}) arguments of
 * a write, as the CLI reads {@code --ref} and {@code --quote}: a pin that names no commit goes to the
 * gate as a pin no store has, so the write is refused with every other violation it has, and the
 * gate's message for it names the revision the caller gave. Violations about a minted id speak of
 * "the new fact". Not thread-safe; one per call.
 */
final class Refs {
    /** A commit id no git object has (git's null id): the gate reports it as an unknown pin. */
    private static final CommitId NO_COMMIT = CommitId.of("0".repeat(40));

    private final Map<FactId, String> unknownPins = new LinkedHashMap<>();
    final List<RefSpec> specs;
    final Store store;

    Refs(Store store, Args a) throws RejectedException {
        this.store = store;
        Map<String, String> quotes = new LinkedHashMap<>(a.textMap("quotes"));
        List<RefSpec> out = new ArrayList<>();
        for (String r : a.texts("refs")) {
            int at = r.indexOf('@');
            String target = at < 0 ? r : r.substring(0, at);
            FactId id = Args.parse("refs", target, FactId::of);
            CommitId pin = null;
            if (at >= 0) {
                String revision = r.substring(at + 1);
                try {
                    pin = store.resolve(revision);
                } catch (NotFoundException e) {
                    unknownPins.put(id, revision);
                    pin = NO_COMMIT;
                }
            }
            out.add(new RefSpec(id, pin, RefRole.CITES, quotes.remove(target)));
        }
        if (!quotes.isEmpty()) {
            throw Args.invalid("quotes", "names " + quotes.keySet() + " but no ref cites it");
        }
        this.specs = out;
    }

    /** Commits {@code tx}; {@code minted} (null when the caller chose the id) is called "the new fact" in violations. */
    CommitResult commit(Transaction tx, FactId minted) throws RejectedException, ConflictException {
        try {
            return tx.commit();
        } catch (RejectedException e) {
            throw unminted(withRevisions(e), minted);
        }
    }

    private RejectedException withRevisions(RejectedException e) {
        if (unknownPins.isEmpty()) {
            return e;
        }
        Map<FactId, String> unreported = new LinkedHashMap<>(unknownPins);
        List<Violation> vs = new ArrayList<>();
        for (Violation v : e.violations()) {
            FactId target = v.message().contains(NO_COMMIT.hex()) ? unknownPins.keySet().stream()
                    .filter(t -> v.subject().endsWith("-> " + t)).findFirst().orElse(null) : null;
            String revision = target == null ? null : unreported.remove(target);
            vs.add(revision == null ? v : new Violation(v.rule(), v.subject(), unknown(revision)));
        }
        unreported.forEach((target, revision) -> vs.add(new Violation(Rule.PIN_UNKNOWN, "ref -> " + target,
                unknown(revision))));
        return new RejectedException(vs);
    }

    static RejectedException unminted(RejectedException e, FactId minted) {
        if (minted == null) {
            return e;
        }
        String id = minted.value();
        List<Violation> vs = new ArrayList<>();
        for (Violation v : e.violations()) {
            String subject = v.subject().equals("fact " + id) ? "new fact" : v.subject().replace(id, "new fact");
            vs.add(new Violation(v.rule(), subject, v.message().replace("fact " + id, "the new fact")
                    .replace(id, "the new fact")));
        }
        return new RejectedException(vs);
    }

    private static String unknown(String revision) {
        return "'" + revision + "' names no commit of this store";
    }
}
