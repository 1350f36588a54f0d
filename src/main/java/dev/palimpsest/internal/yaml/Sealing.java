package dev.palimpsest.internal.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Seal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens the content fields of a fact version with its 32-byte data key: the body, the
 * triple, summary sentence texts and a claim review's reason, as a canonical JSON map, encrypted
 * with AES-256-GCM (12-byte random nonce, 128-bit tag, additional data binding the format tag,
 * the fact id and kind) and hashed with HMAC-SHA256 under the same key. Quotes copied from a
 * sealed fact are sealed alone with that fact's key (nonce and ciphertext in one base64 string,
 * bound to the source and the citing fact). Stateless and thread-safe.
 */
public final class Sealing {
    /** The format tag bound into every sealed fact's additional data. */
    public static final String FORMAT = "palimpsest-seal-1";
    static final String QUOTE_FORMAT = "palimpsest-quote-1";
    private static final int NONCE = 12;
    private static final int TAG_BITS = 128;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Content fields of the top-level mapping, in canonical order. */
    private static final String[] FIELDS = {"body", "subject", "predicate", "object"};

    private Sealing() {}

    /** {@code plain} (not sealed) with a fresh envelope of its content under {@code key}; the content stays readable. */
    public static Fact seal(Fact plain, byte[] key) {
        ObjectNode full = FactCodec.node(plain.withSeal(null));
        byte[] payload = payload(full);
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        byte[] data = crypt(Cipher.ENCRYPT_MODE, key, nonce, aad(plain.id(), plain.kind()), payload);
        Base64.Encoder b64 = Base64.getEncoder();
        return plain.withSeal(new Seal(b64.encodeToString(nonce), b64.encodeToString(data), digest(key, payload), true));
    }

    /** The keyed content hash of {@code plain}'s content under {@code key} (what a seal's digest holds). */
    public static String digest(Fact plain, byte[] key) {
        return digest(key, payload(FactCodec.node(plain.withSeal(null))));
    }

    /** {@code quote}, copied from sealed {@code source} into {@code referrer}, sealed with the source's key. */
    public static String sealQuote(byte[] sourceKey, FactId source, FactId referrer, String quote) {
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        byte[] ct = crypt(Cipher.ENCRYPT_MODE, sourceKey, nonce, quoteAad(source, referrer),
                quote.getBytes(StandardCharsets.UTF_8));
        byte[] out = new byte[NONCE + ct.length];
        System.arraycopy(nonce, 0, out, 0, NONCE);
        System.arraycopy(ct, 0, out, NONCE, ct.length);
        return Base64.getEncoder().encodeToString(out);
    }

    /** The quote sealed by {@link #sealQuote}, or null when {@code sourceKey} is null; throws when it does not open. */
    static String openQuote(byte[] sourceKey, FactId source, FactId referrer, String sealed, String what)
            throws FormatException {
        if (sourceKey == null) {
            return null;
        }
        byte[] all = base64(sealed, what + ": quote_sealed");
        if (all.length <= NONCE) {
            throw new FormatException(what + ": quote_sealed is too short");
        }
        byte[] nonce = java.util.Arrays.copyOf(all, NONCE);
        byte[] ct = java.util.Arrays.copyOfRange(all, NONCE, all.length);
        try {
            return new String(crypt(Cipher.DECRYPT_MODE, sourceKey, nonce, quoteAad(source, referrer), ct),
                    StandardCharsets.UTF_8);
        } catch (IllegalStateException e) {
            throw new FormatException(what + ": quote_sealed does not open with the key of " + source);
        }
    }

    /**
     * Moves the content fields of a plaintext fact mapping {@code full} out into the canonical
     * payload (removing them from {@code full}): body, triple, sentence texts, review reason.
     */
    static byte[] payload(ObjectNode full) {
        ObjectNode p = JSON.createObjectNode();
        for (String f : FIELDS) {
            JsonNode v = full.remove(f);
            if (v != null) {
                p.set(f, v);
            }
        }
        JsonNode ss = full.get("sentences");
        if (ss instanceof ArrayNode arr) {
            ArrayNode texts = p.putArray("sentences");
            for (JsonNode s : arr) {
                texts.add(((ObjectNode) s).remove("text"));
            }
        }
        JsonNode review = full.get("review");
        if (review instanceof ObjectNode rn && rn.has("reason")) {
            p.set("reason", rn.remove("reason"));
        }
        try {
            return JSON.writeValueAsBytes(p);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode sealed content", e);
        }
    }

    /**
     * Puts the content of the sealed mapping {@code n} (its {@code sealed} block already removed
     * into {@code seal}) back into {@code n}: opened with {@code key} (checked against the digest),
     * or placeholders when {@code key} is null.
     */
    static void restore(ObjectNode n, FactId id, Kind kind, Seal seal, byte[] key, String what) throws FormatException {
        if (key == null) {
            n.put("body", Seal.UNAVAILABLE);
            if (hasTriple(kind)) {
                n.put("subject", Seal.UNAVAILABLE);
                n.put("predicate", Seal.UNAVAILABLE);
                n.put("object", Seal.UNAVAILABLE);
            }
            if (n.get("sentences") instanceof ArrayNode arr) {
                for (JsonNode s : arr) {
                    if (s instanceof ObjectNode sn) {
                        sn.put("text", Seal.UNAVAILABLE);
                    }
                }
            }
            return;
        }
        byte[] payload;
        try {
            payload = crypt(Cipher.DECRYPT_MODE, key, base64(seal.nonce(), what + ": sealed nonce"), aad(id, kind),
                    base64(seal.data(), what + ": sealed data"));
        } catch (IllegalStateException e) {
            throw new FormatException(what + ": sealed content does not open with the key of " + id);
        }
        if (!MessageDigest.isEqual(digest(key, payload).getBytes(StandardCharsets.US_ASCII),
                seal.digest().getBytes(StandardCharsets.US_ASCII))) {
            throw new FormatException(what + ": sealed content does not match its digest");
        }
        JsonNode p;
        try {
            p = JSON.readTree(payload);
        } catch (IOException e) {
            throw new FormatException(what + ": sealed content is not a JSON mapping");
        }
        Iterator<Map.Entry<String, JsonNode>> it = p.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            switch (e.getKey()) {
                case "body", "subject", "predicate", "object" -> n.set(e.getKey(), e.getValue());
                case "sentences" -> {
                    if (!(n.get("sentences") instanceof ArrayNode arr) || arr.size() != e.getValue().size()) {
                        throw new FormatException(what + ": sealed sentence texts do not match the sentences");
                    }
                    for (int i = 0; i < arr.size(); i++) {
                        ((ObjectNode) arr.get(i)).set("text", e.getValue().get(i));
                    }
                }
                case "reason" -> {
                    if (!(n.get("review") instanceof ObjectNode rn)) {
                        throw new FormatException(what + ": a sealed review reason without a review");
                    }
                    rn.set("reason", e.getValue());
                }
                default -> throw new FormatException(what + ": unknown sealed field '" + e.getKey() + "'");
            }
        }
    }

    /**
     * The body of a sealed version whose sealed content is its body alone, opened with {@code key}
     * and checked against the digest; null when more is sealed or it does not open.
     */
    static String openBody(byte[] key, FactId id, Kind kind, Seal seal) {
        try {
            byte[] payload = crypt(Cipher.DECRYPT_MODE, key, Base64.getDecoder().decode(seal.nonce()), aad(id, kind),
                    Base64.getDecoder().decode(seal.data()));
            if (!MessageDigest.isEqual(digest(key, payload).getBytes(StandardCharsets.US_ASCII),
                    seal.digest().getBytes(StandardCharsets.US_ASCII))) {
                return null;
            }
            JsonNode p = JSON.readTree(payload);
            JsonNode body = p.get("body");
            return p.size() == 1 && body != null && body.isTextual() ? body.textValue() : null;
        } catch (IllegalArgumentException | IllegalStateException | IOException e) {
            return null;
        }
    }

    static boolean hasTriple(Kind kind) {
        String k = kind.value();
        return k.equals("assertion") || k.equals("edge") || k.equals("entity-claim");
    }

    private static byte[] base64(String s, String what) throws FormatException {
        try {
            return Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw new FormatException(what + " is not base64");
        }
    }

    private static byte[] aad(FactId id, Kind kind) {
        return (FORMAT + "\0" + id.value() + "\0" + kind.value()).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] quoteAad(FactId source, FactId referrer) {
        return (QUOTE_FORMAT + "\0" + source.value() + "\0" + referrer.value()).getBytes(StandardCharsets.UTF_8);
    }

    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 unavailable", e);
        }
    });
    private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    });

    private static String digest(byte[] key, byte[] payload) {
        try {
            Mac mac = MACS.get();
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(payload));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 unavailable", e);
        }
    }

    private static byte[] crypt(int mode, byte[] key, byte[] nonce, byte[] aad, byte[] in) {
        try {
            Cipher c = CIPHERS.get();
            c.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(aad);
            return c.doFinal(in);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new IllegalStateException("authentication failed", e);
        } catch (GeneralSecurityException e) {
            if (mode == Cipher.DECRYPT_MODE) {
                throw new IllegalStateException("cannot decrypt", e);
            }
            throw new IllegalStateException("AES-GCM unavailable", e);
        }
    }
}
