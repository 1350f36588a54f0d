package dev.palimpsest.internal.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Date;
import java.util.Random;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.SymmetricKeyAlgorithmTags;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.openpgp.operator.bc.BcPBESecretKeyEncryptorBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Secret-key material is recognised armored, binary (either packet framing), streamed and by path; public keys and noise are not. */
@ExtendWith(Seeds.class)
class SecretMaterialTest {
    private static final PGPSecretKeyRing RING = OpenPgpKeys.generate("alice", "alice@x", new Date());
    private static final String ARMORED = OpenPgpKeys.armor(RING);
    private static final String PUBLIC = OpenPgpKeys.armor(OpenPgpKeys.publicRing(RING));
    private static final byte[] BINARY = OpenPgpKeys.encode(RING::encode);

    @TempDir
    Path dir;

    /** {@link #BINARY} with its first packet (the secret key) framed in the old or the new packet format. */
    private static byte[] framed(boolean old) {
        int b0 = BINARY[0] & 0xff;
        int hdr;
        int len;
        if ((b0 & 0x40) != 0) {
            int l1 = BINARY[1] & 0xff;
            hdr = l1 < 192 ? 2 : l1 < 224 ? 3 : 6;
            len = l1 < 192 ? l1 : l1 < 224 ? ((l1 - 192) << 8) + (BINARY[2] & 0xff) + 192
                    : java.nio.ByteBuffer.wrap(BINARY, 2, 4).getInt();
        } else {
            int lenType = b0 & 3;
            hdr = lenType == 0 ? 2 : lenType == 1 ? 3 : 5;
            len = lenType == 0 ? BINARY[1] & 0xff : lenType == 1 ? (BINARY[1] & 0xff) << 8 | BINARY[2] & 0xff
                    : java.nio.ByteBuffer.wrap(BINARY, 1, 4).getInt();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (old) {
            out.write(0x95); // tag 5, two length bytes
            out.write(len >> 8);
            out.write(len & 0xff);
        } else {
            out.write(0xC5);
            if (len < 192) {
                out.write(len);
            } else {
                out.write(((len - 192) >> 8) + 192);
                out.write((len - 192) & 0xff);
            }
        }
        out.write(BINARY, hdr, BINARY.length - hdr);
        return out.toByteArray();
    }

    private static String streamed(byte[] bytes, int chunk) {
        InputStream in = SecretMaterial.scanning(new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, chunk));
            }
        });
        try {
            byte[] buf = new byte[4096];
            while (in.read(buf) >= 0) {
                // drain
            }
            return null;
        } catch (SecretMaterial.Found e) {
            return e.getMessage();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anArmoredPrivateKeyIsFoundInTextBytesAndStreamsReadInAnyChunks() {
        assertThat(ARMORED).startsWith("-----BEGIN PGP PRIVATE KEY BLOCK-----");
        assertThat(SecretMaterial.inText(ARMORED)).contains("private key block");
        assertThat(SecretMaterial.inText("notes\n" + ARMORED.replace("PRIVATE", "SECRET"))).isNotNull();
        byte[] inside = ("a preamble\n".repeat(7000) + ARMORED + "trailer").getBytes(StandardCharsets.US_ASCII);
        assertThat(SecretMaterial.inBytes(inside)).contains("private key block");
        for (int chunk : new int[] {1, 7, 4096, 1 << 16}) {
            assertThat(streamed(inside, chunk)).as("chunks of %d", chunk).contains("private key block");
        }
        assertThat(SecretMaterial.inText("-----BEGIN PGP PRIVATE KEY BLOC")).isNull();
        assertThat(streamed("----BEGIN PGP PRIVATE KEY BLOCK-----".getBytes(StandardCharsets.US_ASCII), 3)).isNull();
    }

    @Test
    void aBinarySecretKeyIsFoundInEitherPacketFormat() {
        byte[] old = framed(true);
        byte[] fresh = framed(false);
        assertThat(old[0] & 0xff).isEqualTo(0x95);
        assertThat(fresh[0] & 0xff).isEqualTo(0xC5);
        for (byte[] b : new byte[][] {old, fresh, BINARY}) {
            assertThat(SecretMaterial.inBytes(b)).contains("secret-key packet");
            assertThat(streamed(b, 5)).contains("secret-key packet");
            assertThat(streamed(b, 1 << 16)).contains("secret-key packet");
        }
        byte[] big = Arrays.copyOf(old, SecretMaterial.HEAD + 100_000); // judged once the head is whole
        assertThat(streamed(big, 1000)).contains("secret-key packet");
        byte[] truncated = Arrays.copyOf(old, 20);
        assertThat(SecretMaterial.inBytes(truncated)).isNull();
    }

    @Test
    void aPassphraseProtectedSecretKeyIsFound() throws PGPException, IOException {
        PGPSecretKeyRing locked = PGPSecretKeyRing.copyWithNewPassword(RING, null,
                new BcPBESecretKeyEncryptorBuilder(SymmetricKeyAlgorithmTags.AES_256,
                        new BcPGPDigestCalculatorProvider().get(HashAlgorithmTags.SHA1))
                        .build("a passphrase".toCharArray()));
        byte[] b = OpenPgpKeys.encode(locked::encode);
        assertThat(SecretMaterial.inBytes(b)).contains("secret-key packet");
        assertThat(streamed(b, 3)).contains("secret-key packet");
    }

    @Test
    void aSecretKeyPacketWithAWrongChecksumIsNotSecretMaterial() {
        byte[] b = framed(false);
        assertThat(SecretMaterial.inBytes(b)).isNotNull();
        int end = packetEnd(b);
        b[end - 1] ^= 0x01; // the clear secret part's two-octet checksum
        assertThat(SecretMaterial.inBytes(b)).isNull();
    }

    /** Where the first packet of {@code b}, in the new packet format, ends. */
    private static int packetEnd(byte[] b) {
        int l0 = b[1] & 0xff;
        if (l0 < 192) {
            return 2 + l0;
        }
        if (l0 < 224) {
            return 3 + ((l0 - 192) << 8) + (b[2] & 0xff) + 192;
        }
        return 6 + ((b[2] & 0xff) << 24 | (b[3] & 0xff) << 16 | (b[4] & 0xff) << 8 | (b[5] & 0xff));
    }

    @Test
    void publicKeysTextAndNoiseAreNotSecretMaterial(Seed seed) {
        assertThat(SecretMaterial.inText(PUBLIC)).isNull();
        assertThat(SecretMaterial.inBytes(PUBLIC.getBytes(StandardCharsets.US_ASCII))).isNull();
        assertThat(SecretMaterial.inBytes(OpenPgpKeys.encode(OpenPgpKeys.publicRing(RING)::encode))).isNull();
        assertThat(SecretMaterial.inText("a note on -----BEGIN PGP PUBLIC KEY BLOCK----- lines")).isNull();
        assertThat(SecretMaterial.inBytes(new byte[0])).isNull();
        Random rnd = seed.random();
        int[] tags = {0x94, 0x95, 0x96, 0x97, 0x9C, 0x9D, 0xC5, 0xC7};
        for (int i = 0; i < 20_000; i++) {
            byte[] b = new byte[1 + rnd.nextInt(i < 3000 ? 3000 : 200)];
            rnd.nextBytes(b);
            if (i % 2 == 0) {
                b[0] = (byte) tags[rnd.nextInt(tags.length)];
            }
            assertThat(SecretMaterial.inBytes(b)).as("noise %d", i).isNull();
        }
    }

    @Test
    void aPathIsInTheKeyHomeWhenItsRealPathIs() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home/keys"));
        Path key = Files.writeString(home.resolve("alice.sec.asc"), ARMORED);
        Path outside = Files.writeString(dir.resolve("notes.txt"), "notes");
        Path link = Files.createSymbolicLink(dir.resolve("link.asc"), key);
        Path folderLink = Files.createSymbolicLink(dir.resolve("keys-link"), home);
        assertThat(SecretMaterial.inKeyHome(key, dir.resolve("home"))).contains("key home");
        assertThat(SecretMaterial.inKeyHome(link, dir.resolve("home"))).contains(key.toRealPath().toString());
        assertThat(SecretMaterial.inKeyHome(folderLink.resolve("alice.sec.asc"), dir.resolve("home"))).isNotNull();
        assertThat(SecretMaterial.inKeyHome(dir.resolve("home/keys/../../notes.txt"), dir.resolve("home"))).isNull();
        assertThat(SecretMaterial.inKeyHome(outside, dir.resolve("home"))).isNull();
        assertThat(SecretMaterial.inKeyHome(outside, dir.resolve("no-home"))).isNull();
        assertThat(SecretMaterial.inKeyHome(dir.resolve("missing"), dir.resolve("home"))).isNull();
        assertThatThrownBy(() -> SecretMaterial.scanning(new ByteArrayInputStream(BINARY)).readAllBytes())
                .isInstanceOf(SecretMaterial.Found.class);
    }
}
