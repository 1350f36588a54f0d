package dev.palimpsest.internal.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Every decoder refuses a field it does not know, at every level of nesting, naming it. */
class UnknownFieldsTest {
    private static final String C = "0123456789abcdef0123456789abcdef01234567";
    private static final String B = "89abcdef0123456789abcdef0123456789abcdef";
    private static final String FACT = "id: \"a\"\nkind: \"claim\"\n";

    @Test
    void aFactRefusesAnUnknownFieldInItsSealRefsSentencesAndReceipts() {
        refused(() -> FactCodec.decodeFact(bytes(FACT + "sealed:\n  nonce: \"n\"\n  data: \"d\"\n  digest: \"g\"\n"
                + "  extra: 1\n"), "f"));
        refused(() -> FactCodec.decodeFact(bytes(FACT + "body: \"b\"\nrefs:\n- id: \"s\"\n  role: \"cites\"\n"
                + "  extra: 1\n"), "f"), "f ref #1: ");
        refused(() -> FactCodec.decodeFact(bytes(FACT + "body: \"b\"\nsentences:\n- text: \"t\"\n  extra: 1\n"), "f"),
                "f sentence #1: ");
        refused(() -> FactCodec.decodeFact(bytes(FACT + "body: \"b\"\nreceipt:\n- - id: \"s\"\n    extra: 1\n"), "f"));
    }

    @Test
    void aRetractionRefusesAnUnknownFieldAtTopAndInItsVersion() {
        String version = "version:\n  commit: \"" + C + "\"\n  blob: \"" + B + "\"\n";
        String rest = "reason: \"r\"\nactor: \"curator\"\n";
        refused(() -> FactCodec.decodeRetraction(bytes("id: \"a\"\n" + version + rest + "extra: 1\n"), "r"));
        refused(() -> FactCodec.decodeRetraction(bytes("id: \"a\"\n" + version + "  extra: 1\n" + rest), "r"));
    }

    @Test
    void configOntologyTombstoneAndKeyFilesRefuseAnUnknownField() {
        refused(() -> FactCodec.decodeConfig(bytes("format: 1\nextra: 1\n"), "c"));
        refused(() -> GroundingCodec.decodeOntology(Yaml.MAPPER.readTree("transitive: [p]\nextra: 1\n"), "c"));
        refused(() -> GroundingCodec.decodeOntology(Yaml.MAPPER.readTree(
                "chains:\n- of: [p, q]\n  implies: r\n  extra: 1\n"), "c"));
        refused(() -> TombstoneRecord.decode(bytes("id: \"a\"\ndigest: \"d\"\nreason: \"r\"\nactor: \"curator\"\n"
                + "closure: [\"a\"]\nextra: 1\n"), "t"));
        refused(() -> KeyCodec.decode(bytes("name: \"curator\"\nrole: \"human\"\nfingerprint: \"f\"\nextra: 1\n"), "k"));
    }

    @Test
    void theFirstLineOfAMessageIsWhatPrecedesItsFirstNewline() {
        assertThat(Yaml.firstLine(null)).isEmpty();
        assertThat(Yaml.firstLine("one line")).isEqualTo("one line");
        assertThat(Yaml.firstLine("first\nsecond\nthird")).isEqualTo("first");
        assertThat(Yaml.firstLine("\nsecond")).isEmpty();
        assertThatThrownBy(() -> FactCodec.decodeFact(bytes("id: \"a\n  - [\n"), "f")).isInstanceOf(FormatException.class)
                .hasMessageStartingWith("f: not valid YAML: ").hasMessageNotContaining("\n")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeGreaterThan("f: not valid YAML: ".length() + 5));
    }

    private static void refused(ThrowingCallable decode) {
        refused(decode, "");
    }

    private static void refused(ThrowingCallable decode, String where) {
        assertThatThrownBy(decode).isInstanceOf(FormatException.class).hasMessageContaining(where + "unknown field 'extra'");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
