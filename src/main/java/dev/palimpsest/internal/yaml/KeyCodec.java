package dev.palimpsest.internal.yaml;

import dev.palimpsest.model.KeyRole;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;

/**
 * Canonical YAML for {@code keys/<actor>.yaml}, the record beside an actor's armored public key:
 * {@code name}, {@code role}, {@code fingerprint}, in that order. Decoding is strict. Stateless.
 */
public final class KeyCodec {
    private KeyCodec() {}

    public static byte[] encode(ActorKey k) {
        ObjectNode n = Yaml.NODES.objectNode();
        n.put("name", k.name().value());
        n.put("role", k.role().value());
        n.put("fingerprint", k.fingerprint());
        return Yaml.write(n);
    }

    public static ActorKey decode(byte[] bytes, String what) throws FormatException {
        JsonNode n = Yaml.read(bytes, what);
        Yaml.onlyFields(n, what, "name", "role", "fingerprint");
        try {
            return new ActorKey(ActorName.of(Yaml.text(n, "name", what, true)), role(Yaml.text(n, "role", what, true)),
                    Yaml.text(n, "fingerprint", what, true));
        } catch (IllegalArgumentException e) {
            throw new FormatException(what + ": " + e.getMessage());
        }
    }

    /** The role exactly as written on disk: {@code agent} or {@code human}, lower case. */
    private static KeyRole role(String value) {
        KeyRole r = KeyRole.parse(value);
        if (!r.value().equals(value)) {
            throw new IllegalArgumentException("role '" + value + "' is invalid: it must be agent or human");
        }
        return r;
    }
}
