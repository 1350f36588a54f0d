package dev.palimpsest.internal.audit;

import dev.palimpsest.model.Rule;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.rules.ClaimRules;
import dev.palimpsest.internal.rules.FileRules;
import dev.palimpsest.internal.rules.RuleSink;
import dev.palimpsest.internal.yaml.CanonicalFacts;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.KeyCodec;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.internal.yaml.StoreConfig;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Ref;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Every file a commit adds or modifies is a regular file at a path of the layout, decodes, is in
 * canonical form and sits at the canonical path of what it holds; keys are v4 Ed25519 keys with a
 * matching record, trusted under one name only; a fact version passes the gate's ref rules
 * ({@link RefReplay}), layer rules ({@link ReceiptReplay}), sealing by provenance ({@link SealReplay}),
 * claim and self-supersession rules and a file record's source rule. Stateless.
 */
final class FileCheck implements AuditCheck {
    @Override
    public void check(AuditedCommit c) throws IOException {
        for (Change ch : c.changes()) {
            if (!ch.present()) {
                continue;
            }
            c.countFile();
            String p = ch.path();
            if (!ch.regularFile()) {
                c.violation(p, Rule.UNEXPECTED_MODE, "mode " + Integer.toOctalString(ch.newMode())
                        + " is not an ordinary file (100644)");
            } else if (p.equals(StorePaths.CONFIG)) {
                config(c, ch);
            } else if (p.startsWith(StorePaths.KEYS + "/")) {
                key(c, ch);
            } else if (StorePaths.FACT_FOLDERS.stream().anyMatch(f -> p.startsWith(f + "/"))) {
                fact(c, ch);
            } else if (p.startsWith(StorePaths.RETRACTIONS + "/")) {
                retraction(c, ch);
            } else if (p.startsWith(StorePaths.TOMBSTONES + "/")) {
                tombstone(c, ch);
            } else if (!c.explainedElsewhere(p)) {
                c.violation(p, Rule.UNEXPECTED_PATH, "the store layout has no such file");
            }
        }
    }

    private static void tombstone(AuditedCommit c, Change ch) throws IOException {
        try {
            dev.palimpsest.internal.yaml.TombstoneRecord t = dev.palimpsest.internal.yaml.TombstoneRecord.decode(
                    c.reading().bytes(ch.newBlob(), Constants.OBJ_BLOB), ch.path());
            if (!ch.path().equals(StorePaths.tombstonePath(t.id()))) {
                c.violation(ch.path(), Rule.WRONG_PATH, "the tombstone of " + t.id() + " belongs at "
                        + StorePaths.tombstonePath(t.id()));
            }
        } catch (FormatException e) {
            c.violation(ch.path(), Rule.MALFORMED_FILE, e.getMessage());
        }
    }

    private static void config(AuditedCommit c, Change ch) throws IOException {
        byte[] bytes = c.reading().bytes(ch.newBlob(), Constants.OBJ_BLOB);
        try {
            StoreConfig cfg = FactCodec.decodeConfig(bytes, ch.path());
            if (cfg.format() != StoreConfig.FORMAT || !StoreConfig.LAYOUT.equals(cfg.layout())) {
                c.violation(ch.path(), Rule.MALFORMED_FILE, "format " + cfg.format() + " / layout '" + cfg.layout()
                        + "' is not format " + StoreConfig.FORMAT + " / '" + StoreConfig.LAYOUT + "'");
            } else if (!Arrays.equals(bytes, FactCodec.encode(cfg))) {
                c.violation(ch.path(), Rule.MALFORMED_FILE, "not in canonical form");
            }
        } catch (FormatException e) {
            c.violation(ch.path(), Rule.MALFORMED_FILE, e.getMessage());
        }
    }

    private static void key(AuditedCommit c, Change ch) throws IOException {
        String name = ch.path().substring(StorePaths.KEYS.length() + 1);
        boolean asc = name.endsWith(".asc");
        ActorName actor = name.contains("/") || !(asc || name.endsWith(".yaml")) ? null
                : actorName(name.substring(0, name.lastIndexOf('.')));
        if (actor == null) {
            c.violation(ch.path(), Rule.UNEXPECTED_PATH, "keys/ holds only <actor>.asc and <actor>.yaml files");
            return;
        }
        KeyTables.Table table = c.run().keys.at(c.reading(), c.tree());
        KeyTables.Entry own = table.byActor().get(actor.value());
        if (!asc) {
            recordAgrees(c, ch.path(), c.reading().bytes(ch.newBlob(), Constants.OBJ_BLOB), actor, own);
        } else if (own != null) {
            armoredKey(c, ch, actor, own, table);
        }
    }

    /** {@code keys/<actor>.asc}: a canonical v4 Ed25519 key, trusted under no other name, with its record. */
    private static void armoredKey(AuditedCommit c, Change ch, ActorName actor, KeyTables.Entry own,
            KeyTables.Table table) throws IOException {
        if (own.key() == null) {
            c.violation(ch.path(), Rule.INVALID_KEY, own.problem());
            return;
        }
        if (!own.key().isEd25519V4()) {
            c.violation(ch.path(), Rule.INVALID_KEY, "key " + own.key().fingerprint()
                    + " is not a v4 Ed25519 (EdDSA legacy) key");
        } else if (!Arrays.equals(c.reading().bytes(ch.newBlob(), Constants.OBJ_BLOB),
                own.key().armored().getBytes(StandardCharsets.US_ASCII))) {
            c.violation(ch.path(), Rule.INVALID_KEY, "the key is not in canonical armored form and framing");
        }
        for (Map.Entry<String, KeyTables.Entry> e : table.byActor().entrySet()) {
            if (!e.getKey().equals(actor.value()) && e.getValue().key() != null
                    && e.getValue().key().fingerprint().equals(own.key().fingerprint())) {
                c.violation(ch.path(), Rule.KEY_IN_USE, "key " + own.key().fingerprint() + " is also trusted as actor "
                        + e.getKey());
            }
        }
        String info = StorePaths.keyInfoPath(actor);
        ObjectId record = c.blobAt(info);
        if (record == null) {
            c.violation(ch.path(), Rule.INVALID_KEY, "the key has no record " + info + " beside it");
        } else if (c.change(info) == null) {
            recordAgrees(c, info, c.reading().bytes(record, Constants.OBJ_BLOB), actor, own);
        }
    }

    /** The key record {@code bytes} at {@code path} is canonical and names the actor and its key. */
    private static void recordAgrees(AuditedCommit c, String path, byte[] bytes, ActorName actor,
            KeyTables.Entry own) {
        try {
            ActorKey record = KeyCodec.decode(bytes, path);
            if (!Arrays.equals(bytes, KeyCodec.encode(record))) {
                c.violation(path, Rule.MALFORMED_FILE, "not in canonical form");
            }
            if (!record.name().equals(actor)) {
                c.violation(path, Rule.WRONG_PATH, "the record names actor " + record.name());
            } else if (own == null || own.key() == null) {
                c.violation(path, Rule.INVALID_KEY, "no readable " + StorePaths.keyPath(actor) + " beside the record");
            } else if (!record.fingerprint().equals(own.key().fingerprint())) {
                c.violation(path, Rule.INVALID_KEY, "the record's fingerprint " + record.fingerprint()
                        + " is not that of " + StorePaths.keyPath(actor) + " (" + own.key().fingerprint() + ")");
            }
        } catch (FormatException e) {
            c.violation(path, Rule.MALFORMED_FILE, e.getMessage());
        }
    }

    private static void fact(AuditedCommit c, Change ch) throws IOException {
        byte[] bytes = c.reading().bytes(ch.newBlob(), Constants.OBJ_BLOB);
        Fact f;
        try {
            CanonicalFacts.Decoded d = CanonicalFacts.decode(bytes, ch.path(), c.run().sealKeys);
            f = d.fact();
            c.run().observer.fact(ch.newBlob(), f);
            if (!d.canonical()) {
                c.violation(ch.path(), Rule.MALFORMED_FILE, "not in canonical form");
            }
        } catch (FormatException e) {
            c.violation(ch.path(), e.rule(), e.getMessage());
            return;
        }
        if (dev.palimpsest.internal.layout.FileMeta.KIND.equals(f.kind().value())
                && !f.id().value().startsWith(dev.palimpsest.internal.layout.FileMeta.ID_PREFIX)) {
            c.violation(ch.path(), Rule.WRONG_PATH, "a file record's id is file- and 16 hex digits of its name's SHA-256");
        }
        String expected = StorePaths.factPath(f.kind(), f.id());
        if (!expected.equals(ch.path())) {
            c.violation(ch.path(), Rule.WRONG_PATH, "fact " + f.id() + " of kind " + f.kind() + " belongs at " + expected);
            return;
        }
        for (String other : StorePaths.candidatePaths(f.id())) {
            if (!other.equals(ch.path()) && c.blobAt(other) != null) {
                c.violation(ch.path(), Rule.DUPLICATE_ID, f.id() + " is also live at " + other);
            }
        }
        Fact previous = ch.kind() == Change.Kind.MODIFIED ? c.fact(ch.oldBlob()) : null;
        if (previous != null && !previous.kind().equals(f.kind())) {
            c.violation(ch.path(), Rule.KIND_CHANGED, "a revision changed the kind from " + previous.kind() + " to "
                    + f.kind());
        }
        RefReplay.check(c, ch.path(), f, previous == null ? null : previous.refs());
        ReceiptReplay.check(c, ch.path(), f, previous);
        SealReplay.check(c, ch.path(), f, previous);
        claimAndFile(c, ch.path(), f, previous);
    }

    /**
     * The gate's per-fact claim, supersession and file-record source rules, through the gate's own
     * {@link ClaimRules} and {@link FileRules}; a ref the previous version carried is not re-checked.
     */
    private static void claimAndFile(AuditedCommit c, String path, Fact f, Fact previous) {
        RuleSink sink = (rule, msg) -> c.violation(path, rule, msg);
        ClaimRules.claim(f, sink);
        FileRules.source(f, sink);
        for (Ref r : f.refs()) {
            if (previous == null || previous.refs().stream().noneMatch(o -> o.id().equals(r.id())
                    && o.role().equals(r.role()))) {
                ClaimRules.notSelfSuperseding(f.id(), r.id(), r.role(), sink);
            }
        }
    }

    private static void retraction(AuditedCommit c, Change ch) throws IOException {
        byte[] bytes = c.reading().bytes(ch.newBlob(), Constants.OBJ_BLOB);
        try {
            RetractionRecord r = FactCodec.decodeRetraction(bytes, ch.path());
            if (!Arrays.equals(bytes, FactCodec.encode(r))) {
                c.violation(ch.path(), Rule.MALFORMED_FILE, "not in canonical form");
            }
            String expected = StorePaths.retractionPath(r.version().id());
            if (!expected.equals(ch.path())) {
                c.violation(ch.path(), Rule.WRONG_PATH, "the record of " + r.version().id() + " belongs at " + expected);
            }
        } catch (FormatException e) {
            c.violation(ch.path(), Rule.MALFORMED_FILE, e.getMessage());
        }
    }

    private static ActorName actorName(String s) {
        try {
            return ActorName.of(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
