package dev.palimpsest.internal.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link RefRules#collapse} agrees with stripping and replacing every {@code \s+} run by one space. */
@ExtendWith(Seeds.class)
class CollapseTest {
    private static final String ALPHABET = "ab \t\n\u000B\f\r\u00a0\u2003\u3000é";

    @Test
    void agreesWithTheRegularExpression(Seed seed) {
        Random r = seed.random();
        for (int round = 0; round < 20_000; round++) {
            StringBuilder s = new StringBuilder();
            for (int i = r.nextInt(12); i > 0; i--) {
                s.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
            }
            String in = s.toString();
            assertThat(RefRules.collapse(in)).as("collapse of %s", in.codePoints().mapToObj(Integer::toHexString).toList())
                    .isEqualTo(in.strip().replaceAll("\\s+", " "));
        }
    }

    @Test
    void namedCases() {
        assertThat(RefRules.collapse("  a  b\t\nc ")).isEqualTo("a b c");
        assertThat(RefRules.collapse("a b")).isEqualTo("a b");
        assertThat(RefRules.collapse("a\u2003 b")).isEqualTo("a\u2003 b");
    }
}
