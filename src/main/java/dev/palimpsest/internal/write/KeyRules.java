package dev.palimpsest.internal.write;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.internal.crypto.TrustedKey;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.query.Keys;
import dev.palimpsest.internal.yaml.KeyCodec;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Violation;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The gate's rules for key changes. A key is added under a new actor name, must be a v4 Ed25519
 * key not trusted under another name, and is written as {@code keys/<name>.asc} (canonical armor)
 * plus {@code keys/<name>.yaml}; revoking removes both, never the last trusted key. The set of
 * trusted keys is tracked across the transaction's operations. Not thread-safe (one per write).
 */
final class KeyRules {
    private final Snapshot parent;
    private final List<Violation> violations;
    private final Map<String, byte[]> files;
    private final CommitMessage message;
    private final Set<ActorName> touched = new HashSet<>();
    private Map<ActorName, String> live;

    KeyRules(Snapshot parent, Map<String, byte[]> files, CommitMessage message, List<Violation> violations) {
        this.parent = parent;
        this.files = files;
        this.message = message;
        this.violations = violations;
    }

    /** The two files that record a trusted key, by path: the canonical armored key and its record. */
    static Map<String, byte[]> keyFiles(ActorName name, TrustedKey key, KeyRole role) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        out.put(StorePaths.keyPath(name), key.armored().getBytes(StandardCharsets.US_ASCII));
        out.put(StorePaths.keyInfoPath(name), KeyCodec.encode(new ActorKey(name, role, key.fingerprint())));
        return out;
    }

    void add(Operation.KeyAdd k) {
        String subject = "key " + k.name();
        if (!touched.add(k.name())) {
            violation(Rule.DUPLICATE_OPERATION, subject, "is changed more than once in one transaction");
            return;
        }
        KeyRole role;
        try {
            role = k.role() == null ? KeyRole.AGENT : KeyRole.parse(k.role());
        } catch (IllegalArgumentException e) {
            violation(Rule.INVALID_ROLE, subject, e.getMessage());
            return;
        }
        if (live().containsKey(k.name())) {
            violation(Rule.KEY_EXISTS, subject, StorePaths.keyPath(k.name()) + " already exists at "
                    + parent.commit().name() + "; revoke it first or choose another name");
            return;
        }
        TrustedKey key;
        try {
            key = TrustedKey.parse(k.armoredPublicKey());
        } catch (IllegalArgumentException e) {
            violation(Rule.INVALID_KEY, subject, e.getMessage());
            return;
        }
        if (!key.isEd25519V4()) {
            violation(Rule.INVALID_KEY, subject, "key " + key.fingerprint() + " is not a v4 Ed25519 (EdDSA legacy) key");
            return;
        }
        String notCanonical = key.notCanonical(k.armoredPublicKey());
        if (notCanonical != null) {
            violation(Rule.INVALID_KEY, subject, "key " + key.fingerprint() + " is not in canonical form: " + notCanonical);
            return;
        }
        for (Map.Entry<ActorName, String> e : live().entrySet()) {
            if (e.getValue().equals(key.fingerprint())) {
                violation(Rule.KEY_IN_USE, subject, "key " + key.fingerprint() + " is already trusted for actor "
                        + e.getKey());
                return;
            }
        }
        files.putAll(keyFiles(k.name(), key, role));
        live.put(k.name(), key.fingerprint());
        message.add("key-add", CommitMessage.KEY, k.name().value(), role + " " + key.fingerprint());
    }

    void revoke(Operation.KeyRevoke k) {
        String subject = "key " + k.name();
        if (!touched.add(k.name())) {
            violation(Rule.DUPLICATE_OPERATION, subject, "is changed more than once in one transaction");
            return;
        }
        if (!live().containsKey(k.name())) {
            violation(Rule.NOT_FOUND, subject, "cannot revoke: " + StorePaths.keyPath(k.name()) + " does not exist at "
                    + parent.commit().name());
            return;
        }
        if (live.size() == 1) {
            violation(Rule.LAST_KEY, subject, "cannot revoke the last trusted key: add another key first");
            return;
        }
        files.put(StorePaths.keyPath(k.name()), null);
        files.put(StorePaths.keyInfoPath(k.name()), null);
        live.remove(k.name());
        message.add("key-revoke", CommitMessage.KEY, k.name().value(), null);
    }

    private Map<ActorName, String> live() {
        if (live == null) {
            live = new LinkedHashMap<>();
            for (Map.Entry<ActorName, ObjectId> e : Keys.keyBlobs(parent).entrySet()) {
                String fp;
                try {
                    fp = TrustedKey.parse(new String(parent.read(e.getValue()), StandardCharsets.US_ASCII))
                            .fingerprint();
                } catch (IllegalArgumentException ex) {
                    fp = "unreadable:" + e.getValue().name();
                }
                live.put(e.getKey(), fp);
            }
        }
        return live;
    }

    private void violation(Rule rule, String subject, String msg) {
        violations.add(new Violation(rule, subject, msg));
    }
}
