package dev.palimpsest.internal.crypto;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.bc.BcPGPObjectFactory;

/**
 * A parsed detached OpenPGP signature from a commit's {@code gpgsig} header. Not thread-safe
 * (verification updates it): parse one per commit.
 */
public final class CommitSignature {
    private final PGPSignature signature;

    private CommitSignature(PGPSignature signature) {
        this.signature = signature;
    }

    /** Parses an armored signature block; throws IllegalArgumentException naming the problem. */
    public static CommitSignature parse(String armored) {
        try (InputStream in = PGPUtil.getDecoderStream(
                new ByteArrayInputStream(armored.getBytes(StandardCharsets.US_ASCII)))) {
            Object o = new BcPGPObjectFactory(in).nextObject();
            if (!(o instanceof PGPSignatureList list) || list.isEmpty()) {
                throw new IllegalArgumentException("the signature block holds no OpenPGP signature");
            }
            return new CommitSignature(list.get(0));
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalArgumentException("malformed signature: " + e.getMessage(), e);
        }
    }

    /** The id of the key that made the signature (from its issuer subpackets), 0 when it names none. */
    public long keyId() {
        return signature.getKeyID();
    }

    /** The key id as gpg prints it: 16 upper-case hex digits. */
    public String keyIdHex() {
        return String.format("%016X", signature.getKeyID());
    }

    /** The signature's creation time (from its hashed subpackets), or null when it states none. */
    public java.time.Instant created() {
        java.util.Date d = signature.getCreationTime();
        return d == null ? null : d.toInstant();
    }

    PGPSignature pgp() {
        return signature;
    }
}
