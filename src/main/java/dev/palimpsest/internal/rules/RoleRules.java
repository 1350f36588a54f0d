package dev.palimpsest.internal.rules;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.KeyCodec;
import dev.palimpsest.internal.yaml.StoreConfig;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AgentPermission;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.Rule;
import java.io.IOException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * The rules on what an {@code agent} key may retract or supersede, run by the reference gate on a
 * write and by the audit on every commit: an agent key may not retract or supersede a fact whose
 * version a {@code human} key wrote ({@code agent-overrides-human}), nor retract a dated snapshot,
 * a fact that a live fact supersedes ({@code agent-retracts-snapshot}), unless the store's
 * {@code agents_may} grants it; nor change {@code agents_may} itself ({@code agents-may-human-only}).
 * A human key may always do all three. Stateless.
 */
public final class RoleRules {
    private RoleRules() {}

    /** Who wrote a fact version: the author of the commit that wrote it and that key's role then (null when unknown). */
    public record Writer(String actor, KeyRole role) {}

    /** The role recorded in {@code keys/<actor>.yaml} of {@code s}'s tree, or null when there is none or it does not decode. */
    public static KeyRole role(Snapshot s, String actor) {
        ActorName name;
        try {
            name = ActorName.of(actor);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return role(s.readPath(StorePaths.keyInfoPath(name)));
    }

    /** The role a key record's bytes hold, or null when {@code bytes} is null or does not decode. */
    public static KeyRole role(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return KeyCodec.decode(bytes, "key record").role();
        } catch (FormatException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The author of {@code commit} and the role its key record had where the commit was signed: in
     * the first parent's tree, or in the commit's own tree for the genesis commit.
     */
    public static Writer writerOf(GitRepo repo, ObjectId commit) {
        RevCommit c;
        try (ObjectReader r = repo.newReader()) {
            c = RevCommit.parse(r.open(commit, Constants.OBJ_COMMIT).getCachedBytes());
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read commit " + commit.name() + ": " + e.getMessage(), e);
        }
        String author = c.getAuthorIdent() == null ? null : c.getAuthorIdent().getName();
        if (author == null) {
            return new Writer(null, null);
        }
        ObjectId at = c.getParentCount() == 0 ? commit : c.getParent(0).copy();
        try (Snapshot s = Snapshot.of(repo, at)) {
            return new Writer(author, role(s, author));
        }
    }

    /**
     * Checks a retraction of {@code id} by a key of {@code actorRole}: its retracted version was
     * written by {@code version}; {@code supersededBy} is the live fact superseding it at the parent
     * (null when none). Reports to {@code sink}; true when nothing was broken.
     */
    public static boolean retraction(FactId id, KeyRole actorRole, Writer version, String supersededBy,
            StoreConfig config, RuleSink sink) {
        if (actorRole != KeyRole.AGENT) {
            return true;
        }
        boolean ok = true;
        if (version.role() == KeyRole.HUMAN && !config.agentsMay(AgentPermission.OVERRIDE_HUMAN)) {
            sink.report(Rule.AGENT_OVERRIDES_HUMAN, "an agent key may not retract " + id + ": its version was written"
                    + " by human " + version.actor() + "; a human key retracts it (or the store grants agents_may: "
                    + AgentPermission.OVERRIDE_HUMAN + ")");
            ok = false;
        }
        if (supersededBy != null && !config.agentsMay(AgentPermission.RETRACT_SNAPSHOT)) {
            sink.report(Rule.AGENT_RETRACTS_SNAPSHOT, id + " is a dated snapshot (live " + supersededBy
                    + " supersedes it): history, not error; an agent key may not retract it, a human key may (or the"
                    + " store grants agents_may: " + AgentPermission.RETRACT_SNAPSHOT + ")");
            ok = false;
        }
        return ok;
    }

    /**
     * Checks a change of the store's {@code agents_may} (from {@code before} to {@code after}) by a
     * key of {@code actorRole}: what agent keys may do is a human key's call, so an {@code agent} key
     * may not change it, to grant or to withdraw. Reports to {@code sink}; true when nothing was broken.
     */
    public static boolean agentsMay(KeyRole actorRole, java.util.Set<String> before, java.util.Set<String> after,
            RuleSink sink) {
        if (actorRole != KeyRole.AGENT || before.equals(after)) {
            return true;
        }
        sink.report(Rule.AGENTS_MAY_HUMAN_ONLY, "an agent key may not change agents_may (from " + list(before) + " to "
                + list(after) + "): what agent keys may do is a human's call; sign the change with a human key");
        return false;
    }

    private static String list(java.util.Set<String> grants) {
        return grants.isEmpty() ? "nothing" : String.join(", ", new java.util.TreeSet<>(grants));
    }

    /**
     * Checks a new {@code supersedes} ref to {@code target} by a key of {@code actorRole}, whose
     * pinned version was written by {@code version}. Reports to {@code sink}; true when nothing was broken.
     */
    public static boolean supersession(FactId target, KeyRole actorRole, Writer version, StoreConfig config,
            RuleSink sink) {
        if (actorRole != KeyRole.AGENT || version.role() != KeyRole.HUMAN
                || config.agentsMay(AgentPermission.OVERRIDE_HUMAN)) {
            return true;
        }
        sink.report(Rule.AGENT_OVERRIDES_HUMAN, "an agent key may not supersede " + target + ": its version was written"
                + " by human " + version.actor() + "; a human key supersedes it (or the store grants agents_may: "
                + AgentPermission.OVERRIDE_HUMAN + ")");
        return false;
    }
}
