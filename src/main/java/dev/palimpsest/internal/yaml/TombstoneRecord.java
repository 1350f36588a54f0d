package dev.palimpsest.internal.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The tombstone of a forgotten fact ({@code tombstones/<aa>/<bb>/<id>.yaml}): the keyed content
 * hash of its last version, the reason and actor, the original retention deadline when it was
 * forgotten by expiry (null otherwise), and its closure anchor: the ids of every fact that derived
 * from it at that moment (refs, quotes, receipts, transitively, any version), sorted. Immutable.
 */
public record TombstoneRecord(FactId id, String digest, String reason, ActorName actor, Instant deadline,
        SortedSet<FactId> closure) {
    public TombstoneRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(digest, "digest");
        Objects.requireNonNull(actor, "actor");
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a tombstone needs a reason");
        }
        closure = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(closure == null ? List.of() : closure));
    }

    /** The canonical YAML of {@code t}. */
    public static byte[] encode(TombstoneRecord t) {
        ObjectNode n = Yaml.NODES.objectNode();
        n.put("id", t.id().value());
        n.put("digest", t.digest());
        n.put("reason", t.reason());
        n.put("actor", t.actor().value());
        if (t.deadline() != null) {
            n.put("deadline", t.deadline().toString());
        }
        ArrayNode c = n.putArray("closure");
        t.closure().forEach(f -> c.add(f.value()));
        return Yaml.write(n);
    }

    /** Decodes a tombstone file strictly (and canonically: the bytes must be its encoding). */
    public static TombstoneRecord decode(byte[] bytes, String what) throws FormatException {
        JsonNode n = Yaml.read(bytes, what);
        Yaml.onlyFields(n, what, "id", "digest", "reason", "actor", "deadline", "closure");
        JsonNode c = n.get("closure");
        if (c == null || !c.isArray()) {
            throw new FormatException(what + ": missing list 'closure'");
        }
        try {
            TreeSet<FactId> closure = new TreeSet<>();
            for (JsonNode e : c) {
                if (!e.isTextual()) {
                    throw new FormatException(what + ": closure lists fact ids");
                }
                closure.add(FactId.of(e.textValue()));
            }
            String d = Yaml.text(n, "deadline", what, false);
            TombstoneRecord t = new TombstoneRecord(FactId.of(Yaml.text(n, "id", what, true)),
                    Yaml.text(n, "digest", what, true), Yaml.text(n, "reason", what, true),
                    ActorName.of(Yaml.text(n, "actor", what, true)), d == null ? null : Instant.parse(d), closure);
            if (!java.util.Arrays.equals(bytes, encode(t))) {
                throw new FormatException(what + ": not canonical");
            }
            return t;
        } catch (IllegalArgumentException | java.time.format.DateTimeParseException e) {
            throw new FormatException(what + ": " + e.getMessage());
        }
    }
}
