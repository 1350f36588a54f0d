package dev.palimpsest.internal.yaml;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.extension.ExtendWith;
import dev.palimpsest.model.RefRole;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
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
    private static final String CHARS = "abc XYZ 019 :#-'\"\\\t\né{}[],&*!|>%@`";

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
        return new Fact(FactId.of("f-" + rnd.nextInt(100)), rnd.nextBoolean() ? Kind.CLAIM : Kind.SOURCE, text(rnd),
                conf, refs);
    }

    private static String text(Random rnd) {
        StringBuilder b = new StringBuilder("t");
        int n = rnd.nextInt(30);
        boolean simple = rnd.nextBoolean();
        for (int i = 0; i < n; i++) {
            b.append(simple ? (char) ('a' + rnd.nextInt(26)) : CHARS.charAt(rnd.nextInt(CHARS.length())));
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
