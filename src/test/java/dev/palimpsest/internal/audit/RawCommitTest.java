package dev.palimpsest.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;

/** Commit objects split as {@code git verify-commit} splits them, from crafted bytes. */
class RawCommitTest {
    private static final String TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
    private static final String P1 = "1111111111111111111111111111111111111111";
    private static final String P2 = "2222222222222222222222222222222222222222";
    private static final String AUTHOR = "author alice <alice@example.org> 1700000000 +0100\n";
    private static final String COMMITTER = "committer bob <bob@example.org> 1700000001 -0200\n";

    @Test
    void theHeadersAreReadAndTheSignatureIsLeftOutOfThePayload() {
        String signed = "tree " + TREE + "\nparent " + P1 + "\nparent " + P2 + "\n" + AUTHOR + COMMITTER;
        String raw = signed + "gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n"
                + "\nsubject\n\nbody\n";
        RawCommit c = parse(raw);
        assertThat(c.tree()).isEqualTo(ObjectId.fromString(TREE));
        assertThat(c.parents()).containsExactly(ObjectId.fromString(P1), ObjectId.fromString(P2));
        assertThat(c.author()).isEqualTo(new RawCommit.Ident("alice", "alice@example.org", "1700000000 +0100"));
        assertThat(c.committer()).isEqualTo(new RawCommit.Ident("bob", "bob@example.org", "1700000001 -0200"));
        assertThat(c.signature()).isEqualTo("-----BEGIN PGP SIGNATURE-----\n\nabc\n-----END PGP SIGNATURE-----\n");
        assertThat(c.signatureHeaders()).isEqualTo(1);
        assertThat(text(c.payload())).isEqualTo(signed + "\nsubject\n\nbody\n");
        assertThat(c.message()).isEqualTo("subject\n\nbody\n");
    }

    @Test
    void aSha256SignatureAndItsContinuationsAreLeftOutOfThePayloadButAreNoSignature() {
        String raw = "tree " + TREE + "\ngpgsig-sha256 first\n second\n third\n" + AUTHOR + COMMITTER + "\nm\n";
        RawCommit c = parse(raw);
        assertThat(text(c.payload())).isEqualTo("tree " + TREE + "\n" + AUTHOR + COMMITTER + "\nm\n");
        assertThat(c.signature()).isNull();
        assertThat(c.signatureHeaders()).isZero();
        assertThat(c.author().name()).isEqualTo("alice");
    }

    @Test
    void everyGpgsigHeaderIsCountedAndTheFirstIsTheSignature() {
        String raw = "tree " + TREE + "\n" + AUTHOR + COMMITTER + "gpgsig a\n b\ngpgsig-sha256 x\n y\ngpgsig c\n d\n\nm\n";
        RawCommit c = parse(raw);
        assertThat(c.signatureHeaders()).isEqualTo(2);
        assertThat(c.signature()).isEqualTo("a\nb\n");
        assertThat(text(c.payload())).isEqualTo("tree " + TREE + "\n" + AUTHOR + COMMITTER + "\nm\n");
    }

    @Test
    void aCommitWithoutATreeOrWithoutAMessageIsRefused() {
        assertThatThrownBy(() -> parse(AUTHOR + "\nm\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("commit has no tree header");
        assertThatThrownBy(() -> parse("\nm\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("commit has no tree header");
        assertThatThrownBy(() -> parse("tree " + TREE + "\n" + AUTHOR)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("commit has no message");
        assertThatThrownBy(() -> parse("tree " + TREE + "\nauthor cut off")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("commit has no message");
        assertThatThrownBy(() -> parse("tree " + TREE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("commit has no message");
    }

    @Test
    void anIdentNeedsAnglesButItsNameMayBeEmptyOrEndInAnAngle() {
        assertThat(parse("tree " + TREE + "\nauthor  <e@x> 1 +0000\n\nm").author())
                .isEqualTo(new RawCommit.Ident("", "e@x", "1 +0000"));
        assertThat(parse("tree " + TREE + "\nauthor a> <e@x> 1 +0000\n\nm").author())
                .isEqualTo(new RawCommit.Ident("a>", "e@x", "1 +0000"));
        assertThat(parse("tree " + TREE + "\nauthor a <e@x 1 +0000\n\nm").author()).isNull();
        assertThat(parse("tree " + TREE + "\nauthor a e@x> 1 +0000\n\nm").author()).isNull();
        assertThat(parse("tree " + TREE + "\n\nm").author()).isNull();
    }

    @Test
    void trailersAreTheKeyValueLinesOfTheLastOfSeveralParagraphs() {
        assertThat(trailers("subject\n\nbody\n\nPalimpsest-Actor: alice\nazAZ09-x:  v w \n\n"))
                .containsExactly(new RawCommit.Trailer("Palimpsest-Actor", "alice"), new RawCommit.Trailer("azAZ09-x", "v w"));
        assertThat(trailers("Palimpsest-Actor: alice\n")).isEmpty();
        assertThat(trailers("\n\nPalimpsest-Actor: alice\n")).isEmpty();
        assertThat(trailers("subject\n\nPalimpsest-Actor: alice\nno trailer here\n")).isEmpty();
        assertThat(trailers("subject\n\nPalimpsest-Actor: alice\n: no key\n")).isEmpty();
        assertThat(trailers("subject\n\nPalimpsest-Actor: alice\nKey:no space\n")).isEmpty();
    }

    @Test
    void aTrailerKeyIsLettersDigitsAndHyphensOnly() {
        for (String key : new String[] {"a", "z", "A", "Z", "0", "9", "-", "Key-9"}) {
            assertThat(trailers("s\n\n" + key + ": v")).as(key).containsExactly(new RawCommit.Trailer(key, "v"));
        }
        for (String key : new String[] {"`", "{", "@", "[", "/", ":", "_", "a b", "Ke.y", "ü"}) {
            assertThat(trailers("s\n\n" + key + ": v")).as(key).isEmpty();
        }
    }

    private static java.util.List<RawCommit.Trailer> trailers(String message) {
        return parse("tree " + TREE + "\n\n" + message).trailers();
    }

    private static RawCommit parse(String raw) {
        return RawCommit.parse(raw.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
