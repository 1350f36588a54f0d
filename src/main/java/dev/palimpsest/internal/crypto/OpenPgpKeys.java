package dev.palimpsest.internal.crypto;

import dev.palimpsest.model.PalimpsestInternalException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Date;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Locale;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyPacket;
import org.bouncycastle.bcpg.sig.Features;
import org.bouncycastle.bcpg.sig.KeyFlags;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.generators.Ed25519KeyPairGenerator;
import org.bouncycastle.crypto.params.Ed25519KeyGenerationParameters;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPKeyPair;
import org.bouncycastle.openpgp.PGPKeyRingGenerator;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyPair;

/**
 * Generates and parses OpenPGP keys: Ed25519 primary keys in v4 EdDSA-legacy packets, which gpg 2.2
 * reads, with one user id {@code actor <email>} and no passphrase. Stateless.
 */
public final class OpenPgpKeys {
    private static final SecureRandom RANDOM = new SecureRandom();

    private OpenPgpKeys() {}

    /** A freshly generated, certified secret key ring for {@code name <email>}. */
    public static PGPSecretKeyRing generate(String name, String email, Date created) {
        try {
            Ed25519KeyPairGenerator gen = new Ed25519KeyPairGenerator();
            gen.init(new Ed25519KeyGenerationParameters(RANDOM));
            AsymmetricCipherKeyPair kp = gen.generateKeyPair();
            PGPKeyPair pair = new BcPGPKeyPair(PublicKeyPacket.VERSION_4, PublicKeyAlgorithmTags.EDDSA_LEGACY, kp,
                    created);
            PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
            hashed.setKeyFlags(false, KeyFlags.CERTIFY_OTHER | KeyFlags.SIGN_DATA);
            hashed.setPreferredHashAlgorithms(false, new int[] {HashAlgorithmTags.SHA256, HashAlgorithmTags.SHA512});
            hashed.setFeature(false, Features.FEATURE_MODIFICATION_DETECTION);
            hashed.setIssuerFingerprint(false, pair.getPublicKey());
            PGPKeyRingGenerator rings = new PGPKeyRingGenerator(PGPSignature.POSITIVE_CERTIFICATION, pair,
                    name + " <" + email + ">", new BcPGPDigestCalculatorProvider().get(HashAlgorithmTags.SHA1),
                    hashed.generate(), null,
                    new BcPGPContentSignerBuilder(PublicKeyAlgorithmTags.EDDSA_LEGACY, HashAlgorithmTags.SHA256),
                    null);
            return rings.generateSecretKeyRing();
        } catch (PGPException e) {
            throw new PalimpsestInternalException("cannot generate an OpenPGP key for " + name, e);
        }
    }

    public static PGPPublicKeyRing publicRing(PGPSecretKeyRing secret) {
        java.util.List<PGPPublicKey> keys = new java.util.ArrayList<>();
        Iterator<PGPPublicKey> it = secret.getPublicKeys();
        it.forEachRemaining(keys::add);
        return new PGPPublicKeyRing(keys);
    }

    public static String armor(PGPSecretKeyRing ring) {
        return armorBytes(encode(ring::encode));
    }

    public static String armor(PGPPublicKeyRing ring) {
        return armorBytes(encode(ring::encode));
    }

    /** Parses an armored or binary secret key ring; throws IllegalArgumentException naming the problem. */
    public static PGPSecretKeyRing parseSecret(String armored) {
        try (InputStream in = PGPUtil.getDecoderStream(
                new ByteArrayInputStream(armored.getBytes(StandardCharsets.US_ASCII)))) {
            return new PGPSecretKeyRing(in, new BcKeyFingerprintCalculator());
        } catch (IOException | PGPException | RuntimeException e) {
            throw new IllegalArgumentException("not an OpenPGP secret key: " + e.getMessage(), e);
        }
    }

    /** Parses an armored or binary public key ring; throws IllegalArgumentException naming the problem. */
    public static PGPPublicKeyRing parsePublic(String armored) {
        try (InputStream in = PGPUtil.getDecoderStream(
                new ByteArrayInputStream(armored.getBytes(StandardCharsets.US_ASCII)))) {
            return new PGPPublicKeyRing(in, new BcKeyFingerprintCalculator());
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not an OpenPGP public key: " + e.getMessage(), e);
        }
    }

    public static String fingerprint(PGPPublicKey key) {
        return HexFormat.of().formatHex(key.getFingerprint()).toUpperCase(Locale.ROOT);
    }

    /** The e-mail part of the first user id, or null when it has none. */
    public static String email(PGPPublicKey key) {
        Iterator<String> ids = key.getUserIDs();
        if (!ids.hasNext()) {
            return null;
        }
        String uid = ids.next();
        int lt = uid.indexOf('<');
        int gt = uid.indexOf('>', lt + 1);
        return lt >= 0 && gt > lt ? uid.substring(lt + 1, gt) : null;
    }

    interface Encoder {
        void encode(java.io.OutputStream out) throws IOException;
    }

    static byte[] encode(Encoder e) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            e.encode(out);
            return out.toByteArray();
        } catch (IOException ex) {
            throw new PalimpsestInternalException("cannot encode OpenPGP packet", ex);
        }
    }

    static String armorBytes(byte[] binary) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (ArmoredOutputStream armored = ArmoredOutputStream.builder().clearHeaders().build(out)) {
                armored.write(binary);
            }
            return out.toString(StandardCharsets.US_ASCII);
        } catch (IOException ex) {
            throw new PalimpsestInternalException("cannot armor OpenPGP packet", ex);
        }
    }
}
