package dev.palimpsest.internal.crypto;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.bc.BcPGPObjectFactory;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentVerifierBuilderProvider;

/** Verifies detached armored signatures with BouncyCastle; stateless and thread-safe. */
public final class BcSignatureVerifier implements SignatureVerifier {
    @Override
    public Result verify(byte[] payload, String armoredSignature, String armoredPublicKey) {
        PGPSignature sig;
        try (InputStream in = PGPUtil.getDecoderStream(
                new ByteArrayInputStream(armoredSignature.getBytes(StandardCharsets.US_ASCII)))) {
            Object o = new BcPGPObjectFactory(in).nextObject();
            if (!(o instanceof PGPSignatureList list) || list.isEmpty()) {
                return new Result(false, null, "signature block holds no OpenPGP signature");
            }
            sig = list.get(0);
        } catch (Exception e) {
            return new Result(false, null, "malformed signature: " + e.getMessage());
        }
        PGPPublicKeyRing ring;
        try {
            ring = OpenPgpKeys.parsePublic(armoredPublicKey);
        } catch (IllegalArgumentException e) {
            return new Result(false, null, e.getMessage());
        }
        PGPPublicKey key = ring.getPublicKey(sig.getKeyID());
        if (key == null) {
            return new Result(false, null, String.format("signed by key %016X, not by the expected key %s",
                    sig.getKeyID(), OpenPgpKeys.fingerprint(ring.getPublicKey())));
        }
        try {
            sig.init(new BcPGPContentVerifierBuilderProvider(), key);
            sig.update(payload);
            boolean ok = sig.verify();
            return new Result(ok, OpenPgpKeys.fingerprint(key), ok ? null : "signature does not match the commit");
        } catch (Exception e) {
            return new Result(false, OpenPgpKeys.fingerprint(key), "cannot verify signature: " + e.getMessage());
        }
    }
}
