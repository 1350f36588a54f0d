package dev.palimpsest.model;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.assertj.core.api.Assertions.assertThat;

import java.text.Normalizer;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The ASCII fast path of {@link EntityKey} agrees with the general rule on random ASCII text. */
@ExtendWith(Seeds.class)
class EntityKeyTest {
    private static String general(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
        s = Normalizer.normalize(s, Normalizer.Form.NFKC);
        return s.replaceAll("[^\\p{L}\\p{M}\\p{N}_]+", " ").trim();
    }

    @Test
    void asciiFastPathAgreesWithTheGeneralRule(Seed seed) {
        Random rnd = seed.random();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            int n = rnd.nextInt(12);
            for (int k = 0; k < n; k++) {
                b.append((char) rnd.nextInt(128));
            }
            String t = b.toString();
            assertThat(EntityKey.of(t)).as("%s", t.chars().boxed().toList()).isEqualTo(general(t));
        }
    }

    @Test
    void nonAsciiGoesThroughNfkcAndCaseFolding() {
        assertThat(EntityKey.of("Ｔｏｋｙｏ　東京!")).isEqualTo("tokyo 東京");
        assertThat(EntityKey.of("Café-Straße")).isEqualTo("café strasse");
        assertThat(EntityKey.of("北京")).isNotEqualTo(EntityKey.of("東京"));
    }

    @Test
    void invisibleCharactersAreFoldedAwaySoTheyMakeNoLookAlike() {
        for (String c : new String[] {"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e",
                "\u202e", "\u2066", "\u034f", "\ufe0f", "\u180e", "\u3164", "\uffa0", "\udb40\udc41"}) {
            assertThat(EntityKey.of("Gi" + c + "na")).as("U+%04X", c.codePointAt(0)).isEqualTo("gina");
            assertThat(EntityKey.of(c)).isEmpty();
        }
        assertThat(EntityKey.of("\ufeffGraph\u200b-ARC\u00ad")).isEqualTo("graph arc");
        assertThat(EntityKey.of("Cafe\u200b\u0301")).isEqualTo(EntityKey.of("Café"));
        assertThat(EntityKey.of("Gi na")).isEqualTo("gi na");
        assertThat(EntityKey.of("Gi\u00a0na")).as("a no-break space is a space, not invisible").isEqualTo("gi na");
        assertThat(EntityKey.of("Gi\u200bna")).isEqualTo(EntityKey.of(EntityKey.of("Gi\u200bna")));
    }
}
