package dev.palimpsest.internal.crypto;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.Random;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.junit.jupiter.api.Test;

/** The prepared-key Ed25519 verifier agrees with BouncyCastle's general OpenPGP verifier. */
@ExtendWith(Seeds.class)
class TrustedKeyTest {
    private static final PGPSecretKeyRing RING = OpenPgpKeys.generate("alice", "alice@x", new Date());
    private static final String PUBLIC = OpenPgpKeys.armor(OpenPgpKeys.publicRing(RING));
    private final TrustedKey key = TrustedKey.parse(PUBLIC);
    private final BcSignatureVerifier reference = new BcSignatureVerifier();

    @Test
    void acceptsExactlyWhatBouncyCastleAcceptsForSignedAndTamperedPayloads(Seed seed) {
        BcCommitSigner signer = new BcCommitSigner(RING);
        Random rnd = seed.random();
        for (int i = 0; i < 200; i++) {
            byte[] payload = new byte[1 + rnd.nextInt(600)];
            rnd.nextBytes(payload);
            String sig = signer.sign(payload, Instant.ofEpochSecond(1_700_000_000L + i));
            if (i % 2 == 1) {
                payload[rnd.nextInt(payload.length)] ^= (byte) (1 + rnd.nextInt(255));
            }
            boolean expected = reference.verify(payload, sig, PUBLIC).valid();
            assertThat(expected).isEqualTo(i % 2 == 0);
            assertThat(key.verify(CommitSignature.parse(sig), payload)).as("payload " + i).isEqualTo(expected);
        }
    }

    @Test
    void verifiesSha512AndCanonicalTextSignatures() throws Exception {
        byte[] payload = "tree 0\nauthor a\n\nmessage\n".getBytes(StandardCharsets.US_ASCII);
        for (int type : new int[] {PGPSignature.BINARY_DOCUMENT, PGPSignature.CANONICAL_TEXT_DOCUMENT}) {
            PGPSignatureGenerator gen = new PGPSignatureGenerator(
                    new BcPGPContentSignerBuilder(PublicKeyAlgorithmTags.EDDSA_LEGACY, HashAlgorithmTags.SHA512),
                    RING.getPublicKey());
            gen.init(type, RING.getSecretKey().extractPrivateKey(null));
            gen.update(payload);
            String armored = OpenPgpKeys.armorBytes(OpenPgpKeys.encode(gen.generate()::encode));
            assertThat(key.verify(CommitSignature.parse(armored), payload)).as("type " + type).isTrue();
            payload[0] = 'T';
            assertThat(key.verify(CommitSignature.parse(armored), payload)).as("type " + type).isFalse();
            payload[0] = 't';
        }
    }

    @Test
    void aSignatureByAnotherKeyIsNotHeldAndDoesNotVerify() {
        PGPSecretKeyRing other = OpenPgpKeys.generate("eve", "eve@x", new Date());
        byte[] payload = "payload".getBytes(StandardCharsets.US_ASCII);
        CommitSignature sig = CommitSignature.parse(new BcCommitSigner(other).sign(payload, Instant.now()));
        assertThat(key.holds(sig.keyId())).isFalse();
        assertThat(key.verify(sig, payload)).isFalse();
        assertThat(key.isEd25519V4()).isTrue();
        assertThat(key.armored()).isEqualTo(PUBLIC);
    }
}
