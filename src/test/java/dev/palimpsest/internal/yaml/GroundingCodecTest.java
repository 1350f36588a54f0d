package dev.palimpsest.internal.yaml;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Sentence;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

@ExtendWith(Seeds.class)
class GroundingCodecTest {
    private static final CommitId C = CommitId.of("0123456789abcdef0123456789abcdef01234567");
    private static final BlobId B = BlobId.of("89abcdef0123456789abcdef0123456789abcdef");

    @Test
    void writesTripleFlatReceiptAndSentencesAfterRefsInFixedOrder() {
        Receipt r = new Receipt(List.of(List.of(new Pin(FactId.of("a5"), C, B)), List.of(Pin.of(FactId.of("a1")))));
        Fact f = new Fact(FactId.of("s2"), Kind.SUMMARY, "text", null, List.of(), null,
                new Grounding(null, null, null, r, List.of(), true));
        String yaml = new String(FactCodec.encode(f), StandardCharsets.UTF_8);
        assertThat(yaml).isEqualTo("id: \"s2\"\nkind: \"summary\"\nbody: \"text\"\nflat: true\nreceipt:\n"
                + "- - id: \"a1\"\n- - id: \"a5\"\n    commit: \"" + C.hex() + "\"\n    blob: \"" + B.hex() + "\"\n");
    }

    @Test
    void randomGroundingsRoundTripToIdenticalBytes(Seed seed) throws Exception {
        Random rnd = seed.random();
        for (int i = 0; i < 500; i++) {
            Grounding g = random(rnd);
            Fact f = new Fact(FactId.of("f" + i), Kind.of(rnd.nextBoolean() ? "edge" : "summary"), "b" + i, null,
                    List.of(), null, g);
            byte[] bytes = FactCodec.encode(f);
            Fact back = FactCodec.decodeFact(bytes, "test");
            assertThat(back).as("%s case %d", seed, i).isEqualTo(f);
            assertThat(FactCodec.encode(back)).isEqualTo(bytes);
        }
    }

    @Test
    void rejectsUnsortedBundlesAndFlatFalse() {
        assertThatThrownBy(() -> FactCodec.decodeFact(("id: a\nkind: merge\nbody: x\nreceipt:\n- - id: b\n  - id: a\n")
                .getBytes(StandardCharsets.UTF_8), "t")).isInstanceOf(FormatException.class).hasMessageContaining("sorted");
        assertThatThrownBy(() -> FactCodec.decodeFact(("id: a\nkind: merge\nbody: x\nflat: false\n")
                .getBytes(StandardCharsets.UTF_8), "t")).isInstanceOf(FormatException.class);
    }

    @Test
    void configWithoutPolicyOrOntologyKeepsItsTwoLines() throws Exception {
        assertThat(new String(FactCodec.encode(StoreConfig.current()), StandardCharsets.UTF_8))
                .isEqualTo("format: 1\nlayout: \"sha256-2x2\"\n");
        Ontology o = new Ontology(List.of("part_of"), new TreeMap<>(Map.of("regulates", "regulated_by")),
                new TreeMap<>(Map.of("activates", "regulates")),
                List.of(new Ontology.Chain(List.of("regulates", "part_of"), "regulates")));
        StoreConfig c = StoreConfig.current().with("trust", o);
        byte[] bytes = FactCodec.encode(c);
        assertThat(FactCodec.decodeConfig(bytes, "t")).isEqualTo(c);
    }

    private static Grounding random(Random rnd) {
        boolean triple = rnd.nextBoolean();
        List<Sentence> ss = new ArrayList<>();
        Receipt r = null;
        boolean flat = false;
        if (rnd.nextBoolean()) {
            for (int i = 0, n = 1 + rnd.nextInt(3); i < n; i++) {
                ss.add(new Sentence("sentence " + i + " \"q\"", receipt(rnd)));
            }
        } else {
            r = receipt(rnd);
            flat = rnd.nextBoolean();
        }
        return new Grounding(triple ? "subj " + rnd.nextInt(9) : null, triple ? "p_" + rnd.nextInt(9) : null,
                triple ? "obj: x" : null, r, ss, flat);
    }

    private static Receipt receipt(Random rnd) {
        List<List<Pin>> bundles = new ArrayList<>();
        for (int b = 0, n = 1 + rnd.nextInt(12); b < n; b++) {
            List<Pin> pins = new ArrayList<>();
            for (int m = 0, k = 1 + rnd.nextInt(3); m < k; m++) {
                FactId id = FactId.of("m" + rnd.nextInt(20));
                pins.add(rnd.nextBoolean() ? Pin.of(id) : new Pin(id, C, B));
            }
            if (pins.stream().map(Pin::id).distinct().count() == pins.size()) {
                bundles.add(pins);
            }
        }
        if (bundles.isEmpty()) {
            bundles.add(List.of(Pin.of(FactId.of("z"))));
        }
        return Receipt.truncated(bundles);
    }
}
