package dev.palimpsest.internal.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Seal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** Sealed fact files: canonical round trips with and without the key, tamper detection, sealed quotes. */
class SealingTest {
    private static final byte[] KEY = new byte[32];
    private static final byte[] SRC_KEY = new byte[32];
    private static final FactId A = FactId.of("a");
    private static final FactId SRC = FactId.of("src");

    static {
        Arrays.fill(KEY, (byte) 7);
        Arrays.fill(SRC_KEY, (byte) 9);
    }

    private static SealKeys keys(boolean a, boolean src) {
        return id -> id.equals(A) && a ? KEY.clone() : id.equals(SRC) && src ? SRC_KEY.clone() : null;
    }

    private static Fact plain(Kind kind, Grounding g) {
        Ref r = new Ref(SRC, RefRole.CITES, CommitId.of("1".repeat(40)), BlobId.of("2".repeat(40)), "quoted words here",
                Sealing.sealQuote(SRC_KEY, SRC, A, "quoted words here"));
        return new Fact(A, kind, "Zelda lives at 12 Harbour Lane", 0.5, List.of(r), null, g, null, null,
                Instant.parse("2027-01-01T00:00:00Z"));
    }

    @Test
    void aSealedFileHoldsNoPlaintextAndReadsBackWithItsKeyInBothDecoders() throws Exception {
        Fact sealed = Sealing.seal(plain(Kind.of("note"), Grounding.NONE), KEY);
        byte[] bytes = FactCodec.encode(sealed);
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertThat(text).contains("sealed:\n  nonce: ").contains("quote_sealed: ").contains("retain_until: \"2027-01-01T00:00:00Z\"")
                .doesNotContain("Zelda").doesNotContain("quoted words");
        CanonicalFacts.Decoded fast = CanonicalFacts.decode(bytes, "a", keys(true, true));
        Fact slow = FactCodec.decodeFact(bytes, "a", keys(true, true));
        assertThat(fast.canonical()).isTrue();
        assertThat(fast.fact()).isEqualTo(slow).isEqualTo(sealed);
        assertThat(slow.body()).isEqualTo("Zelda lives at 12 Harbour Lane");
        assertThat(slow.refs().get(0).quote()).isEqualTo("quoted words here");
        assertThat(FactCodec.isCanonicalFact(bytes, slow)).isTrue();
    }

    @Test
    void withoutTheKeysTheContentIsUnavailableAndTheFileStillCanonical() throws Exception {
        Fact sealed = Sealing.seal(plain(Kind.ASSERTION, Grounding.triple("Zelda", "lives at", "12 Harbour Lane")), KEY);
        byte[] bytes = FactCodec.encode(sealed);
        assertThat(new String(bytes, StandardCharsets.UTF_8)).doesNotContain("Zelda").doesNotContain("subject");
        Fact shut = FactCodec.decodeFact(bytes, "a");
        assertThat(shut.contentUnavailable()).isTrue();
        assertThat(shut.body()).isEqualTo(Seal.UNAVAILABLE);
        assertThat(shut.grounding().subject()).isEqualTo(Seal.UNAVAILABLE);
        assertThat(shut.refs().get(0).quote()).isNull();
        assertThat(FactCodec.encode(shut)).isEqualTo(bytes);
        assertThat(CanonicalFacts.fact(bytes, "a")).as("a sealed triple without its key").isEqualTo(shut);
        Fact open = FactCodec.decodeFact(bytes, "a", keys(true, false));
        assertThat(open.grounding().object()).isEqualTo("12 Harbour Lane");
        assertThat(open.refs().get(0).quote()).as("the quote needs the source's key").isNull();
    }

    @Test
    void tamperedCiphertextOrAWrongKeyIsAFormatError() throws Exception {
        byte[] bytes = FactCodec.encode(Sealing.seal(plain(Kind.of("note"), Grounding.NONE), KEY));
        String text = new String(bytes, StandardCharsets.UTF_8);
        int at = text.indexOf("data: \"") + 8;
        char c = text.charAt(at);
        byte[] tampered = (text.substring(0, at) + (c == 'A' ? 'B' : 'A') + text.substring(at + 1))
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> FactCodec.decodeFact(tampered, "a", keys(true, true))).isInstanceOf(FormatException.class)
                .hasMessageContaining("does not open");
        assertThatThrownBy(() -> CanonicalFacts.decode(tampered, "a", keys(true, true)))
                .isInstanceOf(FormatException.class);
        SealKeys wrong = id -> id.equals(A) ? SRC_KEY.clone() : null;
        assertThatThrownBy(() -> FactCodec.decodeFact(bytes, "a", wrong)).isInstanceOf(FormatException.class);
    }

    @Test
    void aSealedEnvelopeOrQuoteOpensOnlyForTheFactItWasWrittenFor() throws Exception {
        byte[] bytes = FactCodec.encode(Sealing.seal(plain(Kind.of("note"), Grounding.NONE), KEY));
        byte[] moved = new String(bytes, StandardCharsets.UTF_8).replaceFirst("id: \"a\"", "id: \"b\"")
                .getBytes(StandardCharsets.UTF_8);
        SealKeys sameKeyForB = id -> id.equals(FactId.of("b")) ? KEY.clone() : null;
        assertThatThrownBy(() -> FactCodec.decodeFact(moved, "b", sameKeyForB)).as("the id is authenticated")
                .isInstanceOf(FormatException.class);
        assertThatThrownBy(() -> CanonicalFacts.decode(moved, "b", sameKeyForB)).isInstanceOf(FormatException.class);
        String quote = Sealing.sealQuote(SRC_KEY, SRC, A, "quoted words here");
        assertThat(Sealing.openQuote(SRC_KEY, SRC, A, quote, "q")).isEqualTo("quoted words here");
        assertThatThrownBy(() -> Sealing.openQuote(SRC_KEY, SRC, FactId.of("b"), quote, "q"))
                .as("a quote copied into another referrer").isInstanceOf(FormatException.class);
        assertThat(Sealing.sealQuote(SRC_KEY, SRC, A, "quoted words here")).as("a fresh nonce each time").isNotEqualTo(quote);
        String nonceAlone = Base64.getEncoder().encodeToString(new byte[12]);
        assertThatThrownBy(() -> Sealing.openQuote(SRC_KEY, SRC, A, nonceAlone, "q")).isInstanceOf(FormatException.class)
                .hasMessage("q: quote_sealed is too short");
    }

    @Test
    void theDigestIsKeyedAndIndependentOfTheNonce() {
        Fact f = plain(Kind.of("note"), Grounding.NONE);
        Fact one = Sealing.seal(f, KEY);
        Fact two = Sealing.seal(f, KEY);
        assertThat(one.seal().nonce()).isNotEqualTo(two.seal().nonce());
        assertThat(one.seal().digest()).isEqualTo(two.seal().digest()).isEqualTo(Sealing.digest(f, KEY));
        assertThat(Sealing.digest(f, SRC_KEY)).isNotEqualTo(one.seal().digest());
    }

    @Test
    void theFastDecoderOpensOnlyABodyAloneThatMatchesItsDigest() throws Exception {
        Kind note = Kind.of("note");
        Seal s = Sealing.seal(plain(note, Grounding.NONE), KEY).seal();
        assertThat(Sealing.openBody(KEY, A, note, s)).isEqualTo("Zelda lives at 12 Harbour Lane");
        Seal triple = Sealing.seal(plain(Kind.ASSERTION, Grounding.triple("Zelda", "lives at", "12 Harbour Lane")), KEY)
                .seal();
        assertThat(Sealing.openBody(KEY, A, Kind.ASSERTION, triple)).as("a triple is sealed too").isNull();
        assertThat(Sealing.openBody(KEY, A, note, envelope(A, note, "{\"subject\":\"Zelda\"}"))).as("no body").isNull();
        assertThat(Sealing.openBody(KEY, A, note, envelope(A, note, "{\"body\":\"Zelda\"}"))).isEqualTo("Zelda");
        assertThat(Sealing.openBody(SRC_KEY, A, note, s)).as("another key").isNull();
        assertThat(Sealing.openBody(KEY, A, note, new Seal("not base64!", s.data(), s.digest(), true))).isNull();
        String other = Sealing.digest(new Fact(A, note, "Someone else entirely", null, List.of()), KEY);
        assertThat(Sealing.openBody(KEY, A, note, new Seal(s.nonce(), s.data(), other, true))).isNull();

        byte[] bytes = FactCodec.encode(Sealing.seal(plain(note, Grounding.NONE), KEY));
        String text = new String(bytes, StandardCharsets.UTF_8);
        String digest = text.substring(text.indexOf("digest: \"") + 9, text.indexOf("digest: \"") + 9 + 64);
        byte[] redigested = text.replace(digest, other).getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> CanonicalFacts.decode(redigested, "a", keys(true, true)))
                .isInstanceOf(FormatException.class).hasMessageContaining("does not match its digest");
    }

    /** A seal of the JSON {@code payload} as the format defines it (AES-256-GCM, additional data, HMAC-SHA256). */
    private static Seal envelope(FactId id, Kind kind, String payload) throws Exception {
        byte[] nonce = new byte[12];
        Arrays.fill(nonce, (byte) 3);
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(KEY, "AES"), new GCMParameterSpec(128, nonce));
        c.updateAAD((Sealing.FORMAT + "\0" + id.value() + "\0" + kind.value()).getBytes(StandardCharsets.UTF_8));
        byte[] plain = payload.getBytes(StandardCharsets.UTF_8);
        byte[] data = c.doFinal(plain);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
        Base64.Encoder b64 = Base64.getEncoder();
        return new Seal(b64.encodeToString(nonce), b64.encodeToString(data), HexFormat.of().formatHex(mac.doFinal(plain)),
                true);
    }

    @Test
    void aSealedQuoteLongerThanItsNonceIsNotTooShortButDoesNotOpenWhenForged() {
        String garbage = java.util.Base64.getEncoder().encodeToString(new byte[13 + 16]);
        assertThatThrownBy(() -> Sealing.openQuote(SRC_KEY, SRC, A, garbage, "q")).isInstanceOf(FormatException.class)
                .hasMessageContaining("does not open");
    }

    @Test
    void assertionsEdgesAndEntityClaimsAloneHaveATriple() {
        for (String k : List.of("assertion", "edge", "entity-claim")) {
            assertThat(Sealing.hasTriple(Kind.of(k))).as(k).isTrue();
        }
        for (String k : List.of("claim", "note", "source", "summary")) {
            assertThat(Sealing.hasTriple(Kind.of(k))).as(k).isFalse();
        }
    }
}
