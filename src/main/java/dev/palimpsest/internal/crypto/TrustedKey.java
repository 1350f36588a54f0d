package dev.palimpsest.internal.crypto;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.bouncycastle.bcpg.EdDSAPublicBCPGKey;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyPacket;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentVerifierBuilderProvider;
import org.bouncycastle.util.BigIntegers;

/**
 * A public key ring prepared for verifying many commit signatures: each Ed25519 key's point is
 * decoded and validated once, and a v4 binary-document signature is checked by hashing the payload
 * with the signature trailer and verifying the Ed25519 signature directly. Other algorithms and
 * signature types go through BouncyCastle's general verifier. Immutable and thread-safe.
 */
public final class TrustedKey {
    /** The Ed25519 curve OID of EdDSA-legacy keys (RFC 4880bis). */
    private static final String ED25519_OID = "1.3.6.1.4.1.11591.15.1";

    private final PGPPublicKeyRing ring;
    private final String fingerprint;
    private final String email;
    private final boolean ed25519;
    private final Map<Long, Ed25519.PublicPoint> points = new HashMap<>();

    private TrustedKey(PGPPublicKeyRing ring) {
        this.ring = ring;
        PGPPublicKey primary = ring.getPublicKey();
        this.fingerprint = OpenPgpKeys.fingerprint(primary);
        this.email = OpenPgpKeys.email(primary);
        this.ed25519 = isEd25519(primary);
        Iterator<PGPPublicKey> it = ring.getPublicKeys();
        while (it.hasNext()) {
            PGPPublicKey k = it.next();
            if (isEd25519(k)) {
                byte[] enc = BigIntegers.asUnsignedByteArray(
                        ((EdDSAPublicBCPGKey) k.getPublicKeyPacket().getKey()).getEncodedPoint());
                Ed25519.PublicPoint p = enc.length == 33 && enc[0] == 0x40
                        ? Ed25519.validatePublicKeyFullExport(enc, 1) : null;
                if (p != null) {
                    points.put(k.getKeyID(), p);
                }
            }
        }
    }

    /** Parses an armored public key; throws IllegalArgumentException naming the problem. */
    public static TrustedKey parse(String armored) {
        return new TrustedKey(OpenPgpKeys.parsePublic(armored));
    }

    public static TrustedKey of(PGPPublicKeyRing ring) {
        return new TrustedKey(ring);
    }

    /** The primary key's fingerprint, upper-case hex. */
    public String fingerprint() {
        return fingerprint;
    }

    /** The e-mail of the primary key's first user id, or null. */
    public String email() {
        return email;
    }

    /** True when the primary key is a v4 Ed25519 (EdDSA legacy) key, the only kind a store trusts. */
    public boolean isEd25519V4() {
        return ed25519;
    }

    /**
     * The ring in the canonical armored form a store keeps in {@code keys/<actor>.asc}: its packets
     * in {@link PacketFraming canonical framing}, armored without header lines.
     */
    public String armored() {
        return OpenPgpKeys.armorBytes(PacketFraming.canonical(OpenPgpKeys.encode(ring::encode)));
    }

    /**
     * Why {@code armored} (the text this key was parsed from) is not the canonical form of the key,
     * or null when it is: a key is added only in the one encoding the store keeps.
     */
    public String notCanonical(String armored) {
        if (armored.equals(armored())) {
            return null;
        }
        byte[] binary;
        try (java.io.InputStream in = org.bouncycastle.openpgp.PGPUtil.getDecoderStream(
                new java.io.ByteArrayInputStream(armored.getBytes(java.nio.charset.StandardCharsets.US_ASCII)))) {
            binary = in.readAllBytes();
        } catch (java.io.IOException e) {
            return "its armor does not decode: " + e.getMessage();
        }
        if (!java.util.Arrays.equals(binary, OpenPgpKeys.encode(ring::encode))) {
            return "it holds more than the key ring, or packets that do not encode back to themselves";
        }
        if (!PacketFraming.isCanonical(binary)) {
            return "its packet headers are not in canonical framing (key and user-id packets in the old format,"
                    + " signatures in the new format, shortest lengths), as gpg --export writes signatures";
        }
        return "its armor is not the canonical armor (no header lines, as palimpsest keys generate writes it)";
    }

    /** The ids of every key in the ring (primary and subkeys). */
    public List<Long> keyIds() {
        List<Long> out = new ArrayList<>();
        ring.getPublicKeys().forEachRemaining(k -> out.add(k.getKeyID()));
        return out;
    }

    /** True when the ring holds the key with this id (primary or subkey). */
    public boolean holds(long keyId) {
        return ring.getPublicKey(keyId) != null;
    }

    /** Verifies {@code sig} over {@code payload} with the ring's key it names; false when it does not hold it. */
    public boolean verify(CommitSignature sig, byte[] payload) {
        PGPSignature s = sig.pgp();
        Ed25519.PublicPoint point = points.get(s.getKeyID());
        try {
            if (point != null && s.getVersion() == 4 && s.getSignatureType() == PGPSignature.BINARY_DOCUMENT
                    && s.getKeyAlgorithm() == PublicKeyAlgorithmTags.EDDSA_LEGACY) {
                String digest = digestName(s.getHashAlgorithm());
                if (digest != null) {
                    MessageDigest md = MessageDigest.getInstance(digest);
                    md.update(payload);
                    md.update(s.getSignatureTrailer());
                    byte[] h = md.digest();
                    byte[] prefix = s.getDigestPrefix();
                    if (prefix.length != 2 || prefix[0] != h[0] || prefix[1] != h[1]) {
                        return false;
                    }
                    byte[] rs = s.getSignature();
                    return rs.length == Ed25519.SIGNATURE_SIZE && Ed25519.verify(rs, 0, point, h, 0, h.length);
                }
            }
            PGPPublicKey key = ring.getPublicKey(s.getKeyID());
            if (key == null) {
                return false;
            }
            s.init(new BcPGPContentVerifierBuilderProvider(), key);
            s.update(payload);
            return s.verify();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean isEd25519(PGPPublicKey k) {
        return k.getVersion() == PublicKeyPacket.VERSION_4 && k.getAlgorithm() == PublicKeyAlgorithmTags.EDDSA_LEGACY
                && k.getPublicKeyPacket().getKey() instanceof EdDSAPublicBCPGKey ed
                && ED25519_OID.equals(ed.getCurveOID().getId());
    }

    private static String digestName(int hashAlgorithm) {
        switch (hashAlgorithm) {
            case HashAlgorithmTags.SHA256:
                return "SHA-256";
            case HashAlgorithmTags.SHA384:
                return "SHA-384";
            case HashAlgorithmTags.SHA512:
                return "SHA-512";
            case HashAlgorithmTags.SHA224:
                return "SHA-224";
            default:
                return null;
        }
    }
}
