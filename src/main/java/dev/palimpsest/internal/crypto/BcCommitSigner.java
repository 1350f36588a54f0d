package dev.palimpsest.internal.crypto;

import dev.palimpsest.model.PalimpsestInternalException;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPSecretKey;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;

/** Signs commit payloads with an unprotected Ed25519 key; thread-safe (a generator per call). */
public final class BcCommitSigner implements CommitSigner {
    private final PGPPublicKey publicKey;
    private final PGPPrivateKey privateKey;
    private final String fingerprint;
    private final String email;

    public BcCommitSigner(PGPSecretKeyRing ring) {
        PGPSecretKey secret = ring.getSecretKey();
        this.publicKey = secret.getPublicKey();
        if (publicKey.getAlgorithm() != PublicKeyAlgorithmTags.EDDSA_LEGACY) {
            throw new IllegalArgumentException("signing key is not an Ed25519 (EdDSA legacy) key");
        }
        try {
            this.privateKey = secret.extractPrivateKey(null);
        } catch (PGPException e) {
            throw new IllegalArgumentException("cannot unlock the secret key (is it passphrase-protected?)", e);
        }
        this.fingerprint = OpenPgpKeys.fingerprint(publicKey);
        this.email = OpenPgpKeys.email(publicKey);
    }

    @Override
    public String sign(byte[] payload, Instant time) {
        try {
            PGPSignatureGenerator gen = new PGPSignatureGenerator(
                    new BcPGPContentSignerBuilder(PublicKeyAlgorithmTags.EDDSA_LEGACY, HashAlgorithmTags.SHA256),
                    publicKey);
            gen.init(PGPSignature.BINARY_DOCUMENT, privateKey);
            PGPSignatureSubpacketGenerator hashed = new PGPSignatureSubpacketGenerator();
            hashed.setSignatureCreationTime(false, Date.from(time));
            hashed.setIssuerFingerprint(false, publicKey);
            gen.setHashedSubpackets(hashed.generate());
            PGPSignatureSubpacketGenerator unhashed = new PGPSignatureSubpacketGenerator();
            unhashed.setIssuerKeyID(false, publicKey.getKeyID());
            gen.setUnhashedSubpackets(unhashed.generate());
            gen.update(payload);
            PGPSignature sig = gen.generate();
            return OpenPgpKeys.armorBytes(OpenPgpKeys.encode(sig::encode));
        } catch (PGPException e) {
            throw new PalimpsestInternalException("cannot sign commit", e);
        }
    }

    @Override
    public String fingerprint() {
        return fingerprint;
    }

    @Override
    public String email() {
        return email;
    }
}
