package dev.palimpsest.internal.yaml;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.extension.ExtendWith;
import dev.palimpsest.model.RefRole;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

@ExtendWith(Seeds.class)
class FactCodecTest {
    private static final CommitId C = CommitId.of("0123456789abcdef0123456789abcdef01234567");
    private static final BlobId B = BlobId.of("89abcdef0123456789abcdef0123456789abcdef");

    @Test
    void encodesFieldsInFixedOrderAndOmitsAbsentOnes() {
        Fact f = new Fact(FactId.of("f1"), Kind.CLAIM, "body text", null,
                List.of(new Ref(FactId.of("s1"), RefRole.CITES, C, B, "a quote of text")));
        String yaml = new String(FactCodec.encode(f), StandardCharsets.UTF_8);
        assertThat(yaml).isEqualTo("id: \"f1\"\nkind: \"claim\"\nbody: \"body text\"\nrefs:\n"
                + "- id: \"s1\"\n  role: \"cites\"\n  commit: \"" + C.hex() + "\"\n  blob: \"" + B.hex() + "\"\n"
                + "  quote: \"a quote of text\"\n");
    }

    @Test
    void randomFactsRoundTripAndReencodeToIdenticalBytes(Seed seed) throws Exception {
        Random rnd = seed.random();
        for (int i = 0; i < 2000; i++) {
            Fact f = randomFact(rnd, i);
            byte[] bytes = FactCodec.encode(f);
            Fact back = FactCodec.decodeFact(bytes, "test");
            assertThat(back).as("%s case %d", seed, i).isEqualTo(f);
            assertThat(FactCodec.encode(back)).as("%s case %d", seed, i).isEqualTo(bytes);
            assertThat(FactCodec.isCanonicalFact(bytes, back)).isTrue();
        }
    }

    @Test
    void rejectsUnknownFieldsWrongTypesAndInvalidValues() {
        assertThatThrownBy(() -> decode("id: a\nkind: claim\nbody: x\nextra: 1\n"))
                .isInstanceOf(FormatException.class).hasMessageContaining("unknown field 'extra'");
        assertThatThrownBy(() -> decode("id: a\nkind: claim\n"))
                .isInstanceOf(FormatException.class).hasMessageContaining("missing field 'body'");
        assertThatThrownBy(() -> decode("id: A/B\nkind: claim\nbody: x\n"))
                .isInstanceOf(FormatException.class).hasMessageContaining("fact id");
        assertThatThrownBy(() -> decode("id: a\nkind: claim\nbody: x\nconfidence: high\n"))
                .isInstanceOf(FormatException.class).hasMessageContaining("confidence");
        assertThatThrownBy(() -> decode("- not a mapping\n"))
                .isInstanceOf(FormatException.class).hasMessageContaining("mapping");
    }

    @Test
    void nonCanonicalBytesAreDetected() throws Exception {
        byte[] loose = "id: a\nkind: claim\nbody: x\n".getBytes(StandardCharsets.UTF_8);
        Fact f = FactCodec.decodeFact(loose, "t");
        assertThat(FactCodec.isCanonicalFact(loose, f)).isFalse();
    }

    private static Fact decode(String yaml) throws FormatException {
        return FactCodec.decodeFact(yaml.getBytes(StandardCharsets.UTF_8), "t");
    }

    private static Fact randomFact(Random rnd, int i) {
        List<Ref> refs = new ArrayList<>();
        int n = rnd.nextInt(4);
        for (int r = 0; r < n; r++) {
            boolean pinned = rnd.nextBoolean();
            refs.add(new Ref(FactId.of("t" + r), rnd.nextBoolean() ? RefRole.CITES : RefRole.of("derived_from"), pinned ? C : null,
                    pinned ? B : null, rnd.nextBoolean() ? "q" + randomText(rnd) : null));
        }
        Double confidence = rnd.nextBoolean() ? null : rnd.nextInt(1001) / 1000.0;
        return new Fact(FactId.of("f" + i), rnd.nextBoolean() ? Kind.CLAIM : Kind.SOURCE, "b" + randomText(rnd),
                confidence, refs);
    }

    private static String randomText(Random rnd) {
        String alphabet = "abc XYZ 019 :#-'\"\\\n\t{}[]&*!|>%@`,?é€😀 ";
        StringBuilder b = new StringBuilder();
        int len = rnd.nextInt(60);
        for (int i = 0; i < len; i++) {
            int cp = alphabet.codePointAt(alphabet.offsetByCodePoints(0, rnd.nextInt(alphabet.codePointCount(0,
                    alphabet.length()))));
            b.appendCodePoint(cp);
        }
        return b.toString();
    }
}
