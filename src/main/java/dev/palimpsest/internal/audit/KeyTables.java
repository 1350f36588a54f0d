package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.crypto.TrustedKey;
import dev.palimpsest.internal.layout.StorePaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;

/**
 * The keys a tree trusts ({@code keys/<actor>.asc}), parsed once per key blob and tabled once per
 * {@code keys/} tree, so a long history of commits that do not touch {@code keys/} costs one map
 * lookup each. Thread-safe.
 */
final class KeyTables {
    /** A key file: its blob and parsed key, or the reason it does not parse. */
    record Entry(ObjectId blob, TrustedKey key, String problem) {}

    /** The trusted keys of one tree: by actor name, and actor name by key id. */
    record Table(Map<String, Entry> byActor, Map<Long, String> actorByKeyId) {
        static final Table EMPTY = new Table(Map.of(), Map.of());
    }

    private final Map<ObjectId, Entry> byBlob = new ConcurrentHashMap<>();
    private final Map<ObjectId, Table> byTree = new ConcurrentHashMap<>();

    /** The keys trusted by the root tree {@code root}. */
    Table at(Reading r, ObjectId root) throws IOException {
        ObjectId keys = r.subtree(root, StorePaths.KEYS);
        if (keys == null) {
            return Table.EMPTY;
        }
        Table t = byTree.get(keys);
        if (t == null) {
            t = build(r, keys);
            byTree.put(keys.copy(), t);
        }
        return t;
    }

    /** The parsed key in a blob (cached). */
    Entry key(Reading r, ObjectId blob) throws IOException {
        Entry e = byBlob.get(blob);
        if (e == null) {
            String armored = new String(r.bytes(blob, Constants.OBJ_BLOB), StandardCharsets.US_ASCII);
            try {
                e = new Entry(blob.copy(), TrustedKey.parse(armored), null);
            } catch (IllegalArgumentException ex) {
                e = new Entry(blob.copy(), null, ex.getMessage());
            }
            byBlob.put(blob.copy(), e);
        }
        return e;
    }

    private Table build(Reading r, ObjectId keysTree) throws IOException {
        Map<String, Entry> byActor = new HashMap<>();
        Map<Long, String> byKeyId = new HashMap<>();
        CanonicalTreeParser p = new CanonicalTreeParser(null, r.reader(), keysTree);
        for (; !p.eof(); p.next()) {
            String name = p.getEntryPathString();
            if (!name.endsWith(".asc") || p.getEntryRawMode() != FileMode.REGULAR_FILE.getBits()) {
                continue;
            }
            String actor = name.substring(0, name.length() - 4);
            Entry e = key(r, p.getEntryObjectId());
            byActor.put(actor, e);
            if (e.key() != null) {
                for (long id : e.key().keyIds()) {
                    byKeyId.put(id, actor);
                }
            }
        }
        return new Table(Collections.unmodifiableMap(byActor), Collections.unmodifiableMap(byKeyId));
    }
}
