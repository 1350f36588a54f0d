package dev.palimpsest.internal.yaml;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.extension.ExtendWith;
import dev.palimpsest.model.RefRole;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fast canonical reader agrees with FactCodec: every encoded fact decodes to itself and is
 * canonical, and whatever bytes it accepts are exactly FactCodec's encoding of what it returns.
 */
@ExtendWith(Seeds.class)
class CanonicalFactsTest {
    private static final String CHARS = "abc XYZ 019 :#-'\"\\\t\né{}[],&*!|>%@`東京😀\u2028\u0085\u00a0\u007f\u0001\ufeff\u00ff";
    private static final int[] CODE_POINTS = CHARS.codePoints().toArray();

    @Test
    void everyEncodedFactDecodesToItselfAsCanonical(Seed seed) throws Exception {
        Random rnd = seed.random();
        for (int i = 0; i < 2000; i++) {
            Fact f = randomFact(rnd);
            CanonicalFacts.Decoded d = CanonicalFacts.decode(FactCodec.encode(f), "f");
            assertThat(d.fact()).isEqualTo(f);
            assertThat(d.canonical()).isTrue();
        }
    }

    @Test
    void mutatedFilesAreCanonicalOnlyWhenTheyEqualTheEncodingOfWhatTheyHold(Seed seed) {
        Random rnd = seed.random();
        int accepted = 0;
        for (int i = 0; i < 4000; i++) {
            byte[] bytes = FactCodec.encode(randomFact(rnd));
            byte[] m = mutate(rnd, bytes);
            try {
                CanonicalFacts.Decoded d = CanonicalFacts.decode(m, "f");
                assertThat(d.canonical()).as(new String(m, StandardCharsets.UTF_8))
                        .isEqualTo(Arrays.equals(m, FactCodec.encode(d.fact())));
                accepted++;
            } catch (FormatException e) {
                // not a fact at all: the slow path named the problem
            }
        }
        assertThat(accepted).isGreaterThan(500);
    }

    @Test
    void theFastReaderReturnsWhatTheYamlLibraryReadsOrTheSameError(Seed seed) {
        Random rnd = seed.random();
        int fast = 0;
        for (int i = 0; i < 6000; i++) {
            byte[] bytes = FactCodec.encode(randomFact(rnd));
            byte[] m = i % 2 == 0 ? bytes : mutate(rnd, bytes);
            String shown = new String(m, StandardCharsets.UTF_8);
            Fact slow;
            try {
                slow = FactCodec.decodeFact(m, "f");
            } catch (FormatException e) {
                assertThatThrownBy(() -> CanonicalFacts.fact(m, "f")).as(shown).isInstanceOf(FormatException.class)
                        .hasMessage(e.getMessage());
                continue;
            }
            try {
                assertThat(CanonicalFacts.fact(m, "f")).as(shown).isEqualTo(slow);
            } catch (FormatException e) {
                throw new AssertionError(shown + ": the fast reader failed where the YAML library read " + slow, e);
            }
            fast += CanonicalFacts.parses(m, SealKeys.NONE) ? 1 : 0;
        }
        assertThat(fast).as("files read without the YAML library").isGreaterThan(2000);
    }

    @Test
    void sealedRetainedAndSealedQuoteFilesDecodeAsTheYamlLibraryDoesWithAndWithoutTheirKeys(Seed seed) throws Exception {
        Random rnd = seed.random();
        for (int i = 0; i < 300; i++) {
            Fact plain = randomFact(rnd);
            byte[] key = new byte[32];
            rnd.nextBytes(key);
            Fact variant;
            switch (i % 3) {
                case 0 -> variant = Sealing.seal(plain, key);
                case 1 -> variant = new Fact(plain.id(), plain.kind(), plain.body(), plain.confidence(), plain.refs(),
                        null, plain.grounding(), plain.run(), null, java.time.Instant.ofEpochSecond(rnd.nextInt(1 << 30)));
                default -> {
                    FactId src = FactId.of("s-" + rnd.nextInt(10));
                    List<Ref> refs = new ArrayList<>(plain.refs());
                    refs.add(new Ref(src, RefRole.of("cites"), null, null, null,
                            Sealing.sealQuote(key, src, plain.id(), "quoted " + i)));
                    variant = new Fact(plain.id(), plain.kind(), plain.body(), plain.confidence(), refs, null,
                            plain.grounding(), plain.run());
                }
            }
            byte[] bytes = FactCodec.encode(variant);
            String shown = new String(bytes, StandardCharsets.UTF_8);
            SealKeys keys = id -> key;
            boolean plainIsFast = CanonicalFacts.parses(FactCodec.encode(plain), SealKeys.NONE);
            boolean sealedTriple = i % 3 == 0 && plain.grounding().subject() != null;
            if (sealedTriple) {
                assertThat(CanonicalFacts.parses(bytes, keys)).as("a sealed triple takes the YAML path: " + shown).isFalse();
            } else if (plainIsFast) {
                assertThat(CanonicalFacts.parses(bytes, keys)).as("fast path: " + shown).isTrue();
            }
            for (SealKeys k : List.of(keys, SealKeys.NONE)) {
                Fact slow = FactCodec.decodeFact(bytes, "f", k);
                assertThat(CanonicalFacts.fact(bytes, "f", k)).as(shown).isEqualTo(slow);
                CanonicalFacts.Decoded d = CanonicalFacts.decode(bytes, "f", k);
                assertThat(d.fact()).isEqualTo(slow);
                assertThat(d.canonical()).isTrue();
            }
            Fact opened = CanonicalFacts.fact(bytes, "f", keys);
            assertThat(opened.body()).isEqualTo(plain.body());
            assertThat(opened.grounding()).isEqualTo(plain.grounding());
            if (i % 3 == 0) {
                assertThat(CanonicalFacts.fact(bytes, "f").contentUnavailable()).as("forgotten: no key").isTrue();
            }
            if (i % 3 == 2) {
                assertThat(opened.refs().get(opened.refs().size() - 1).quote()).isEqualTo("quoted " + i);
            }
        }
    }

    @Test
    void escapesAndUnicodeAreReadWithoutTheYamlLibrary() throws Exception {
        byte[] m = ("id: \"x\"\nkind: \"entity-claim\"\nbody: \"東京 \\\"q\\\" \\t \\u00e9 \\x41 \\U0001F600 \\\\\"\n"
                + "run: \"r1\"\nsubject: \"auth-service\"\npredicate: \"depends on\"\nobject: \"redis\"\n")
                .getBytes(StandardCharsets.UTF_8);
        assertThat(CanonicalFacts.parses(m, SealKeys.NONE)).isTrue();
        assertThat(CanonicalFacts.fact(m, "f")).isEqualTo(FactCodec.decodeFact(m, "f"));
        assertThat(CanonicalFacts.fact(m, "f").body()).isEqualTo("東京 \"q\" \t é A \ud83d\ude00 \\");
    }

    @Test
    void nonCanonicalButValidYamlDecodesAsNotCanonical() throws Exception {
        CanonicalFacts.Decoded d = CanonicalFacts.decode(
                "id: x\nkind: claim\nbody: plain\n".getBytes(StandardCharsets.UTF_8), "f");
        assertThat(d.fact().body()).isEqualTo("plain");
        assertThat(d.canonical()).isFalse();
    }

    @Test
    void retractionRecordsAreWrittenExactlyAsTheYamlMapperWritesThem(Seed seed) {
        Random rnd = seed.random();
        String[] tricky = {"null", "true", "~", "123", "0x1F", "- item", "key: value", "# not a comment", "  padded  ",
            "'single'", "*alias", "&anchor", "!tag", "%directive", "@at", "`tick`", "[1, 2]", "{a: b}", "a | b > c",
            "?", "---", "...", "yes", "NO", "1e3", ".inf", "é", "tab\there", "line\nbreak", "quote \" mark", "back \\ slash"};
        int fast = 0;
        for (int i = 0; i < 3000; i++) {
            StringBuilder reason = new StringBuilder(rnd.nextBoolean() ? tricky[rnd.nextInt(tricky.length)] : "r");
            for (int n = rnd.nextInt(40); n > 0; n--) {
                reason.append(rnd.nextInt(4) == 0 ? tricky[rnd.nextInt(tricky.length)]
                        : String.valueOf((char) (0x20 + rnd.nextInt(0x5f))));
            }
            if (reason.toString().isBlank()) {
                reason.append('x');
            }
            RetractionRecord r = new RetractionRecord(new FactVersion(FactId.of("f-" + rnd.nextInt(1000)),
                    CommitId.of(hex(rnd)), BlobId.of(hex(rnd))), reason.toString(), ActorName.of("curator" + i % 3));
            assertThat(new String(FactCodec.encode(r), StandardCharsets.UTF_8)).as(reason.toString())
                    .isEqualTo(new String(FactCodec.encodeWithMapper(r), StandardCharsets.UTF_8));
            fast += CanonicalFacts.encodeRetraction(r) != null ? 1 : 0;
        }
        assertThat(fast).as("records written by the direct encoder").isBetween(300, 2900);
    }

    private static Fact randomFact(Random rnd) {
        List<Ref> refs = new ArrayList<>();
        for (int r = rnd.nextInt(3); r > 0; r--) {
            boolean pinned = rnd.nextBoolean();
            refs.add(new Ref(FactId.of("t" + rnd.nextInt(5)), rnd.nextBoolean() ? RefRole.CITES : RefRole.of("derived_from"),
                    pinned ? CommitId.of(hex(rnd)) : null, pinned ? BlobId.of(hex(rnd)) : null,
                    rnd.nextBoolean() ? text(rnd) : null));
        }
        Double conf = rnd.nextInt(3) == 0 ? null : rnd.nextInt(4) == 0 ? (double) rnd.nextInt(2) : rnd.nextDouble();
        Grounding g = rnd.nextBoolean() ? Grounding.NONE : Grounding.triple(text(rnd), text(rnd), text(rnd));
        String run = rnd.nextBoolean() ? null : "run-" + rnd.nextInt(100) + (rnd.nextBoolean() ? ":a.b_c" : "");
        return new Fact(FactId.of("f-" + rnd.nextInt(100)), rnd.nextBoolean() ? Kind.CLAIM : Kind.SOURCE, text(rnd),
                conf, refs, null, g, run);
    }

    private static String text(Random rnd) {
        StringBuilder b = new StringBuilder("t");
        int n = rnd.nextInt(30);
        boolean simple = rnd.nextBoolean();
        for (int i = 0; i < n; i++) {
            b.appendCodePoint(simple ? 'a' + rnd.nextInt(26) : CODE_POINTS[rnd.nextInt(CODE_POINTS.length)]);
        }
        return b.toString();
    }

    private static String hex(Random rnd) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            b.append("0123456789abcdef".charAt(rnd.nextInt(16)));
        }
        return b.toString();
    }

    private static byte[] mutate(Random rnd, byte[] b) {
        byte[] out = b.clone();
        String alphabet = " \n\"\\:-0.5ea";
        int pos = rnd.nextInt(out.length);
        switch (rnd.nextInt(3)) {
            case 0:
                out[pos] = (byte) alphabet.charAt(rnd.nextInt(alphabet.length()));
                return out;
            case 1:
                byte[] shorter = new byte[out.length - 1];
                System.arraycopy(out, 0, shorter, 0, pos);
                System.arraycopy(out, pos + 1, shorter, pos, out.length - pos - 1);
                return shorter;
            default:
                byte[] longer = new byte[out.length + 1];
                System.arraycopy(out, 0, longer, 0, pos);
                longer[pos] = (byte) alphabet.charAt(rnd.nextInt(alphabet.length()));
                System.arraycopy(out, pos, longer, pos + 1, out.length - pos);
                return longer;
        }
    }
}
