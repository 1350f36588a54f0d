package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.rules.RoleRules;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.internal.yaml.StoreConfig;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;

/**
 * {@link RoleRules} on history, as the gate applies them at write time: in a commit whose author's
 * key is an {@code agent} at the first parent, each retraction record written and each new pinned
 * {@code supersedes} ref is checked against the role of the key that wrote the version concerned
 * and, for a retraction, whether a fact live at the parent supersedes it; the store's
 * {@code agents_may} is read at the parent, and such a commit may not change it ({@code
 * agents-may-human-only}; a human key may). Merge commits are held to the convergent merge instead.
 * Thread-safe.
 */
final class RoleCheck implements AuditCheck {
    private final GitRepo repo;
    private PredicateIndex index;
    private final Map<ObjectId, RoleRules.Writer> writers = new ConcurrentHashMap<>();

    RoleCheck(GitRepo repo) {
        this.repo = repo;
    }

    private synchronized PredicateIndex index() {
        if (index == null) {
            index = PredicateIndex.open(repo);
        }
        return index;
    }

    @Override
    public boolean readsRepository(AuditedCommit c) {
        try {
            return c.parent() != null && agentRole(c) == KeyRole.AGENT;
        } catch (IOException e) {
            return false;
        }
    }

    /** The role of the commit author's key record at the first parent, or null. */
    private static KeyRole agentRole(AuditedCommit c) throws IOException {
        String author = c.raw().author() == null ? null : c.raw().author().name();
        ActorName name;
        try {
            name = ActorName.of(author);
        } catch (IllegalArgumentException | NullPointerException e) {
            return null;
        }
        ObjectId blob = c.parentBlobAt(StorePaths.keyInfoPath(name));
        return blob == null ? null : RoleRules.role(c.reading().bytes(blob, Constants.OBJ_BLOB));
    }

    @Override
    public void check(AuditedCommit c) throws IOException {
        if (c.parent() == null) {
            return;
        }
        KeyRole role = agentRole(c);
        if (role != KeyRole.AGENT) {
            return;
        }
        StoreConfig config = config(c);
        Change cfg = c.change(StorePaths.CONFIG);
        if (cfg != null) {
            RoleRules.agentsMay(role, config.agentsMay(), grants(c, cfg.newBlob()),
                    (rule, msg) -> c.violation(StorePaths.CONFIG, rule, msg));
        }
        for (Change ch : c.changes()) {
            String p = ch.path();
            if (!ch.present() || !p.endsWith(".yaml")) {
                continue;
            }
            FactId id = StorePaths.idFromPath(p);
            if (id == null) {
                continue;
            }
            if (p.equals(StorePaths.retractionPath(id))) {
                retraction(c, ch, id, role, config);
            } else if (StorePaths.candidatePaths(id).contains(p)) {
                supersessions(c, ch, id, role, config);
            }
        }
    }

    private void retraction(AuditedCommit c, Change ch, FactId id, KeyRole role, StoreConfig config)
            throws IOException {
        RetractionRecord rec;
        try {
            rec = FactCodec.decodeRetraction(c.reading().bytes(ch.newBlob(), Constants.OBJ_BLOB), ch.path());
        } catch (FormatException e) {
            return; // the file check reports it
        }
        RoleRules.retraction(id, role, writer(ObjectId.fromString(rec.version().commit().hex())),
                index().liveSuperseder(id.value(), c.parent()), config,
                (rule, msg) -> c.violation(ch.path(), rule, msg));
    }

    private void supersessions(AuditedCommit c, Change ch, FactId id, KeyRole role, StoreConfig config)
            throws IOException {
        Fact now = c.fact(ch.newBlob());
        if (now == null) {
            return;
        }
        Set<FactId> before = new HashSet<>();
        if (ch.oldBlob() != null) {
            Fact old = c.fact(ch.oldBlob());
            if (old != null) {
                old.refs().stream().filter(r -> RefRole.SUPERSEDES.equals(r.role())).forEach(r -> before.add(r.id()));
            }
        }
        for (Ref r : now.refs()) {
            if (RefRole.SUPERSEDES.equals(r.role()) && r.commit() != null && !before.contains(r.id())) {
                RoleRules.supersession(r.id(), role, writer(ObjectId.fromString(r.commit().hex())), config,
                        (rule, msg) -> c.violation(ch.path(), rule, msg));
            }
        }
    }

    private RoleRules.Writer writer(ObjectId commit) {
        return writers.computeIfAbsent(commit, w -> {
            try {
                return RoleRules.writerOf(repo, w);
            } catch (RuntimeException e) {
                return new RoleRules.Writer(null, null); // a pin to no commit: the ref checks report it
            }
        });
    }

    /** The {@code agents_may} of the config in {@code blob} (null: removed), empty when it does not decode. */
    private static Set<String> grants(AuditedCommit c, ObjectId blob) throws IOException {
        if (blob == null) {
            return Set.of();
        }
        try {
            return FactCodec.decodeConfig(c.reading().bytes(blob, Constants.OBJ_BLOB), StorePaths.CONFIG).agentsMay();
        } catch (FormatException | IllegalArgumentException e) {
            return Set.of();
        }
    }

    private static StoreConfig config(AuditedCommit c) throws IOException {
        ObjectId blob = c.parentBlobAt(StorePaths.CONFIG);
        if (blob == null) {
            return StoreConfig.current();
        }
        try {
            return FactCodec.decodeConfig(c.reading().bytes(blob, Constants.OBJ_BLOB), StorePaths.CONFIG);
        } catch (FormatException e) {
            return StoreConfig.current();
        }
    }
}
