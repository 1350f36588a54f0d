package dev.palimpsest.internal.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.Fact;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The fast reader's quoted strings: every escape and every length of UTF-8 the YAML library reads
 * is read without it, to the same text; malformed or truncated text is left to the YAML library or
 * refused with its error.
 */
class CanonicalFactsTextTest {
    private static final String HEAD = "id: \"x\"\nkind: \"claim\"\nbody: ";

    @Test
    void everyYamlEscapeIsReadWithoutTheYamlLibrary() throws Exception {
        String[][] escapes = {{"\\0", "\0"}, {"\\a", "\u0007"}, {"\\b", "\b"}, {"\\t", "\t"}, {"\\n", "\n"},
            {"\\v", "\u000b"}, {"\\f", "\f"}, {"\\r", "\r"}, {"\\e", "\u001b"}, {"\\\"", "\""}, {"\\\\", "\\"},
            {"\\N", "\u0085"}, {"\\_", "\u00a0"}, {"\\L", "\u2028"}, {"\\P", "\u2029"}, {"\\x00", "\0"},
            {"\\x41", "A"}, {"\\x7f", "\u007f"}, {"\\u00e9", "é"}, {"\\ufeff", "\ufeff"},
            {"\\U0001F600", "\ud83d\ude00"}, {"\\U0010FFFF", new String(Character.toChars(0x10ffff))}};
        for (String[] e : escapes) {
            readFast(quotedBody("a " + e[0] + " ~"), "a " + e[1] + " ~");
            readFast(quotedBody(e[0] + "z"), e[1] + "z");
        }
    }

    @Test
    void utf8OfEveryLengthAtTheEdgesOfWhatYamlPrintsIsReadWithoutTheYamlLibrary() throws Exception {
        int[] printable = {0xa0, 0xa9, 0x7ff, 0x800, 0x905, 0x2027, 0x202a, 0xd7ff, 0xe000, 0xfeef, 0xff21, 0xfffd,
            0x10000, 0x1f600, 0x3ffff, 0x100000, 0x10ffff};
        for (int cp : printable) {
            String s = new String(Character.toChars(cp));
            readFast(quotedBody(s), s);
            readFast(quotedBody("~" + s + " q"), "~" + s + " q");
        }
    }

    @Test
    void malformedUtf8IsLeftToTheYamlLibrary() {
        String[] bad = {"80", "bf", "c0 80", "c1 bf", "c2", "c2 41", "e0 80 80", "e0 9f bf", "e6 9d", "e6 9d 41",
            "ed a0 80", "ed bf bf", "ef bf be", "ef bb bf", "f0 80 80 80", "f0 8f bf bf", "f4 90 80 80", "f5 80 80 80",
            "f8 88 80 80 80", "ff", "c2 80", "c2 85", "e2 80 a8", "e2 80 a9"};
        for (String hex : bad) {
            byte[] raw = HexFormat.ofDelimiter(" ").parseHex(hex);
            assertSameAsYamlLibrary(bytes(HEAD + "\"a", raw, "\"\n"));
            assertSameAsYamlLibrary(bytes(HEAD + "\"a", raw));
        }
    }

    @Test
    void truncatedOrBrokenStringsGiveWhatTheYamlLibraryGives() {
        String[] files = {HEAD, HEAD + "\"", HEAD + "\"abc", HEAD + "\"abc\"", HEAD + "\"a\\tb", HEAD + "\"abc\\",
            HEAD + "\"a\\u12", HEAD + "\"a\\u00e", HEAD + "\"a\\U0001F60", HEAD + "\"a\\x4", HEAD + "\"a\\q\"\n",
            HEAD + "\"a\\U00110000\"\n", HEAD + "\"a\\xg1\"\n", HEAD + "\"ab\u0001\nrun: \"r\"\n",
            HEAD + "\"ab\\t\u0001\nrun: \"r\"\n", HEAD + "\"b\"\nrun: subject: \"s\"\npredicate: \"p\"\nobject: \"o\"\n",
            HEAD + "\"b\"\nrun: ", HEAD + "\"b\"\nrun: \"r\" \n", HEAD + "\"a\\tb\" \n", HEAD + "\"a\u007f\"\n",
            HEAD + "\"b\"\nrefs:\n- id: \"s\"\n  role: \"cites\"\n  quote: ",
            HEAD + "\"b\"\nsubject: \"s\"\npredicate: \"p\"\nobject: "};
        for (String f : files) {
            assertSameAsYamlLibrary(f.getBytes(StandardCharsets.UTF_8));
        }
        assertSameAsYamlLibrary(bytes(HEAD + "\"a", HexFormat.of().parseHex("e69d")));
        assertSameAsYamlLibrary(bytes(HEAD + "\"a", HexFormat.of().parseHex("f09f98")));
    }

    private static byte[] quotedBody(String yamlText) {
        return (HEAD + "\"" + yamlText + "\"\n").getBytes(StandardCharsets.UTF_8);
    }

    private static void readFast(byte[] file, String body) throws FormatException {
        String shown = new String(file, StandardCharsets.UTF_8);
        assertThat(CanonicalFacts.parses(file, SealKeys.NONE)).as("fast path: %s", shown).isTrue();
        Fact slow = FactCodec.decodeFact(file, "f");
        assertThat(slow.body()).as(shown).isEqualTo(body);
        assertThat(CanonicalFacts.fact(file, "f")).as(shown).isEqualTo(slow);
    }

    private static void assertSameAsYamlLibrary(byte[] file) {
        String shown = HexFormat.of().formatHex(file);
        Fact slow;
        try {
            slow = FactCodec.decodeFact(file, "f");
        } catch (FormatException e) {
            assertThatThrownBy(() -> CanonicalFacts.fact(file, "f")).as(shown).isInstanceOf(FormatException.class)
                    .hasMessage(e.getMessage());
            return;
        }
        try {
            assertThat(CanonicalFacts.fact(file, "f")).as(shown).isEqualTo(slow);
        } catch (FormatException e) {
            throw new AssertionError(shown + ": the fast reader failed where the YAML library read " + slow, e);
        }
    }

    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            out.writeBytes(p instanceof byte[] b ? b : ((String) p).getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
