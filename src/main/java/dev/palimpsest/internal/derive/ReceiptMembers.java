package dev.palimpsest.internal.derive;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Sentence;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * Who rests on whom through receipts: for every indexed version of a merge, edge or summary, the
 * members of its receipts (and its sentences' receipts), and per member the artifacts some version
 * of which named it. Derived from the predicate index's events, caught up incrementally on each
 * use (each artifact version's file is decoded once per process). Thread-safe (synchronized).
 */
final class ReceiptMembers {
    private static final Set<String> ARTIFACT_KINDS = Set.of(Kind.MERGE.value(), Kind.EDGE.value(), Kind.SUMMARY.value());

    private final GitRepo repo;
    private final PredicateIndex index;
    private final Map<ObjectId, Set<String>> byBlob = new HashMap<>();
    private final Map<String, Set<String>> artifactsByMember = new HashMap<>();
    private int cursor;

    ReceiptMembers(GitRepo repo, PredicateIndex index) {
        this.repo = repo;
        this.index = index;
    }

    /** The artifacts that ever named {@code member} in a receipt, as of the last {@link #catchUp}. */
    synchronized Set<String> artifactsNaming(String member) {
        return artifactsByMember.getOrDefault(member, Set.of());
    }

    /** The receipt members of the artifact version stored in {@code blob} (empty for other facts). */
    synchronized Set<String> members(ObjectId blob) {
        return byBlob.getOrDefault(blob, Set.of());
    }

    /** Reads the artifact versions the index learnt of since the last call. */
    synchronized void catchUp() {
        ObjectReader[] reader = new ObjectReader[1];
        try {
            cursor = index.eventsSince(cursor, (id, st) -> {
                if (st.live() && st.blob() != null && ARTIFACT_KINDS.contains(st.kind()) && !byBlob.containsKey(st.blob())) {
                    if (reader[0] == null) {
                        reader[0] = repo.newReader();
                    }
                    Set<String> ms = decode(reader[0], st.blob(), id);
                    byBlob.put(st.blob().copy(), ms);
                    for (String m : ms) {
                        artifactsByMember.computeIfAbsent(m, k -> new HashSet<>()).add(id);
                    }
                }
            });
        } finally {
            if (reader[0] != null) {
                reader[0].close();
            }
        }
    }

    private static Set<String> decode(ObjectReader reader, ObjectId blob, String id) {
        try {
            Fact f = FactCodec.decodeFact(reader.open(blob, Constants.OBJ_BLOB).getCachedBytes(Limits.MAX_FILE), id);
            Set<String> out = new HashSet<>();
            add(out, f.grounding().receipt());
            for (Sentence s : f.grounding().sentences()) {
                add(out, s.receipt());
            }
            out.remove(id);
            return out;
        } catch (IOException | FormatException | RuntimeException e) {
            return Set.of();
        }
    }

    private static void add(Set<String> out, Receipt r) {
        if (r != null) {
            for (FactId m : r.members()) {
                out.add(m.value());
            }
        }
    }
}
