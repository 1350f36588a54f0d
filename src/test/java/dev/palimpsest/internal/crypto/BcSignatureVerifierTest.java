package dev.palimpsest.internal.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.junit.jupiter.api.Test;

/** Every outcome of verifying a detached signature, and of parsing a commit's signature block. */
class BcSignatureVerifierTest {
    private static final PGPSecretKeyRing ALICE = OpenPgpKeys.generate("alice", "alice@x", new Date());
    private static final PGPSecretKeyRing EVE = OpenPgpKeys.generate("eve", "eve@x", new Date());
    private static final String ALICE_PUBLIC = OpenPgpKeys.armor(OpenPgpKeys.publicRing(ALICE));
    private static final String ALICE_FPR = OpenPgpKeys.fingerprint(ALICE.getPublicKey());
    private static final Instant WHEN = Instant.ofEpochSecond(1_700_000_123L);
    private final BcSignatureVerifier verifier = new BcSignatureVerifier();
    private final byte[] payload = "tree 1\nauthor a\n\nhello\n".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aSignatureOfThePayloadByTheKeyIsValidAndNamesTheSigner() {
        String sig = new BcCommitSigner(ALICE).sign(payload, WHEN);
        assertThat(verifier.verify(payload, sig, ALICE_PUBLIC))
                .isEqualTo(new SignatureVerifier.Result(true, ALICE_FPR, null));
    }

    @Test
    void aChangedPayloadDoesNotMatch() {
        String sig = new BcCommitSigner(ALICE).sign(payload, WHEN);
        payload[payload.length - 2] = '!';
        assertThat(verifier.verify(payload, sig, ALICE_PUBLIC))
                .isEqualTo(new SignatureVerifier.Result(false, ALICE_FPR, "signature does not match the commit"));
    }

    @Test
    void aSignatureByAnotherKeyNamesBothKeys() {
        String sig = new BcCommitSigner(EVE).sign(payload, WHEN);
        SignatureVerifier.Result r = verifier.verify(payload, sig, ALICE_PUBLIC);
        assertThat(r).isEqualTo(new SignatureVerifier.Result(false, null, String.format(
                "signed by key %016X, not by the expected key %s", EVE.getPublicKey().getKeyID(), ALICE_FPR)));
    }

    @Test
    void aBlockWithoutASignatureIsNotASignature() {
        SignatureVerifier.Result r = verifier.verify(payload, ALICE_PUBLIC, ALICE_PUBLIC);
        assertThat(r).isEqualTo(new SignatureVerifier.Result(false, null,
                "signature block holds no OpenPGP signature"));
    }

    @Test
    void garbageIsAMalformedSignatureOrKey() {
        SignatureVerifier.Result r = verifier.verify(payload, "-----BEGIN PGP SIGNATURE-----\n\n!!!!\n", ALICE_PUBLIC);
        assertThat(r.valid()).isFalse();
        assertThat(r.signerFingerprint()).isNull();
        assertThat(r.problem()).startsWith("malformed signature: ");
        String sig = new BcCommitSigner(ALICE).sign(payload, WHEN);
        SignatureVerifier.Result k = verifier.verify(payload, sig, "not a key");
        assertThat(k.valid()).isFalse();
        assertThat(k.signerFingerprint()).isNull();
        assertThat(k.problem()).startsWith("not an OpenPGP public key");
    }

    @Test
    void aParsedSignatureNamesItsKeyAndCreationTime() {
        CommitSignature s = CommitSignature.parse(new BcCommitSigner(ALICE).sign(payload, WHEN));
        long id = ALICE.getPublicKey().getKeyID();
        assertThat(s.keyId()).isEqualTo(id);
        assertThat(s.keyIdHex()).isEqualTo(String.format("%016X", id)).hasSize(16);
        assertThat(s.created()).isEqualTo(WHEN);
        assertThat(s.pgp().getKeyID()).isEqualTo(id);
    }

    @Test
    void parsingABlockWithoutASignatureOrGarbageNamesTheProblem() {
        assertThatThrownBy(() -> CommitSignature.parse(ALICE_PUBLIC)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the signature block holds no OpenPGP signature");
        assertThatThrownBy(() -> CommitSignature.parse("-----BEGIN PGP SIGNATURE-----\n\n!!!!\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("malformed signature: ")
                .hasCauseInstanceOf(Exception.class);
    }
}
