package dev.palimpsest.cli;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The {@code --ref TARGET[@COMMIT]} and {@code --quote TARGET=TEXT} options, turned into ref specs.
 * A pin that names no commit goes to the gate as a pin no store has, so that the write is refused
 * with every other violation it has; the gate's message for it is then replaced by one naming the
 * revision the user gave.
 */
final class RefOptions {
    /** A commit id no git object has (git's null id): the gate reports it as an unknown pin. */
    private static final CommitId NO_COMMIT = CommitId.of("0".repeat(40));

    @Option(names = "--ref", paramLabel = "TARGET[@COMMIT]",
            description = "Cite TARGET as read at COMMIT (default: the commit the write lands on). Repeatable.")
    List<String> refs = new ArrayList<>();

    @Option(names = "--quote", paramLabel = "TARGET=TEXT",
            description = "A verbatim quote (12+ characters) from the cited TARGET. Repeatable.")
    List<String> quotes = new ArrayList<>();

    /** Target -> the revision the user pinned it at, for pins that name no commit. */
    private final Map<FactId, String> unknownPins = new LinkedHashMap<>();

    List<RefSpec> specs(Store store) throws RejectedException {
        Map<FactId, String> quoteBy = new LinkedHashMap<>();
        for (String q : quotes) {
            int eq = q.indexOf('=');
            if (eq <= 0) {
                throw new RejectedException(Parse.INVALID_ARGUMENT, "--quote", "'" + q + "' must be TARGET=TEXT");
            }
            quoteBy.put(Parse.fact("--quote", q.substring(0, eq)), TextInput.arg("--quote", q.substring(eq + 1)));
        }
        List<RefSpec> out = new ArrayList<>();
        for (String r : refs) {
            int at = r.indexOf('@');
            FactId target = Parse.fact("--ref", at < 0 ? r : r.substring(0, at));
            CommitId pin = null;
            if (at >= 0) {
                String revision = r.substring(at + 1);
                try {
                    pin = store.resolve(revision);
                } catch (NotFoundException e) {
                    unknownPins.put(target, revision);
                    pin = NO_COMMIT;
                }
            }
            out.add(new RefSpec(target, pin, RefRole.CITES, quoteBy.remove(target)));
        }
        if (!quoteBy.isEmpty()) {
            throw new RejectedException(Parse.INVALID_ARGUMENT, "--quote", "names " + quoteBy.keySet()
                    + " but no --ref cites it");
        }
        return out;
    }

    /** Commits {@code tx}; an unknown pin is one violation among the others of the write. */
    /**
     * Commits like {@link #commit(Transaction)}; when the new fact's id {@code fid} was minted
     * (no {@code given} id), violations speak of "the new fact" instead of an id nobody chose.
     */
    CommitResult commit(Transaction tx, FactId given, FactId fid) throws RejectedException, ConflictException {
        try {
            return commit(tx);
        } catch (RejectedException e) {
            throw Failure.unminted(e, given == null ? fid : null);
        }
    }

    CommitResult commit(Transaction tx) throws RejectedException, ConflictException {
        try {
            return tx.commit();
        } catch (RejectedException e) {
            if (unknownPins.isEmpty()) {
                throw e;
            }
            Map<FactId, String> unreported = new LinkedHashMap<>(unknownPins);
            List<Violation> vs = new ArrayList<>();
            for (Violation v : e.violations()) {
                FactId target = pinned(v);
                String revision = target == null ? null : unreported.remove(target);
                vs.add(revision == null ? v : new Violation(v.rule(), v.subject(), unknown(revision)));
            }
            unreported.forEach((target, revision) -> vs.add(new Violation(Rule.PIN_UNKNOWN, "ref -> " + target,
                    unknown(revision))));
            throw new RejectedException(vs);
        }
    }

    /** The target of a gate violation about one of our placeholder pins, or null. */
    private FactId pinned(Violation v) {
        if (!v.message().contains(NO_COMMIT.hex())) {
            return null;
        }
        return unknownPins.keySet().stream().filter(t -> v.subject().endsWith("-> " + t)).findFirst().orElse(null);
    }

    private static String unknown(String revision) {
        return "'" + revision + "' names no commit of this store";
    }
}
