package dev.palimpsest.internal.query;

import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.KeyCodec;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;
import org.eclipse.jgit.treewalk.TreeWalk;

/** The keys a snapshot trusts: the {@code keys/<actor>.asc} files in its tree. Stateless. */
public final class Keys {
    private Keys() {}

    /** Every trusted actor's armored-key blob, by actor, sorted by name. */
    public static Map<ActorName, ObjectId> keyBlobs(Snapshot s) {
        Map<ActorName, ObjectId> out = new TreeMap<>((a, b) -> a.value().compareTo(b.value()));
        try (TreeWalk tw = TreeWalk.forPath(s.reader(), StorePaths.KEYS, s.tree())) {
            if (tw == null || !tw.isSubtree()) {
                return out;
            }
            CanonicalTreeParser p = new CanonicalTreeParser(null, s.reader(), tw.getObjectId(0));
            for (; !p.eof(); p.next()) {
                String name = p.getEntryPathString();
                if (name.endsWith(".asc") && FileMode.REGULAR_FILE.equals(p.getEntryRawMode())) {
                    try {
                        out.put(ActorName.of(name.substring(0, name.length() - 4)), p.getEntryObjectId());
                    } catch (IllegalArgumentException e) {
                        // not an actor's key file; the audit reports it
                    }
                }
            }
            return out;
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot list keys at " + s.commit().name(), e);
        }
    }

    /** Every trusted actor's key record, sorted by name. */
    public static List<ActorKey> list(Snapshot s) {
        List<ActorKey> out = new ArrayList<>();
        for (ActorName actor : keyBlobs(s).keySet()) {
            String path = StorePaths.keyInfoPath(actor);
            byte[] bytes = s.readPath(path);
            if (bytes == null) {
                throw new PalimpsestInternalException(path + " is missing at " + s.commit().name());
            }
            try {
                out.add(KeyCodec.decode(bytes, path));
            } catch (FormatException e) {
                throw new PalimpsestInternalException("corrupt key record: " + e.getMessage());
            }
        }
        return out;
    }
}
