package dev.palimpsest.validtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.cli.Run;
import dev.palimpsest.internal.yaml.CanonicalFacts;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.ValidTimeException;
import dev.palimpsest.model.Validity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Valid time in fact files: one canonical spelling, written by every writer, refused otherwise. */
class ValidTimeFieldsTest {
    private static final Instant MARCH = Instant.parse("2021-03-01T00:00:00Z");
    private static final Instant JUNE = Instant.parse("2021-06-01T00:00:00Z");

    @TempDir
    Path dir;

    private Run cmd(String... args) {
        return Run.inStore(dir.resolve("s.git").toString(), dir.resolve("home").toString(), args);
    }

    @Test
    void aFactFileHoldsItsValidityAsCanonicalInstantsAfterTheTripleAndBeforeTheDeadline() throws Exception {
        Fact f = new Fact(FactId.of("a"), Kind.CLAIM, "The breakwater opened.", null, List.of())
                .withValidity(new Validity(MARCH, JUNE));
        String yaml = new String(FactCodec.encode(f), StandardCharsets.UTF_8);
        assertThat(yaml).isEqualTo("id: \"a\"\nkind: \"claim\"\nbody: \"The breakwater opened.\"\n"
                + "valid_from: \"2021-03-01T00:00:00Z\"\nvalid_until: \"2021-06-01T00:00:00Z\"\n");
        CanonicalFacts.Decoded d = CanonicalFacts.decode(yaml.getBytes(StandardCharsets.UTF_8), "a");
        assertThat(d.canonical()).isTrue();
        assertThat(d.fact().validity()).isEqualTo(new Validity(MARCH, JUNE));
        assertThat(FactCodec.decodeFact(yaml.getBytes(StandardCharsets.UTF_8), "a")).isEqualTo(d.fact());
        Fact open = FactCodec.decodeFact("id: \"a\"\nkind: \"claim\"\nbody: \"x\"\nvalid_until: \"2021-06-01T00:00:00Z\"\n"
                .getBytes(StandardCharsets.UTF_8), "a");
        assertThat(open.validity().start()).isEmpty();
        assertThat(open.validity().end()).contains(JUNE);
    }

    @Test
    void anotherSpellingInAFileIsMalformedValidTimeAndAnEmptyIntervalIsInverted() {
        for (String spelling : new String[] {"2021-03-01", "2021-03-01T00:00Z", "2021-03-01T01:00:00+01:00",
                "2021-03-01T00:00:00.000Z", "yesterday"}) {
            byte[] file = ("id: \"a\"\nkind: \"claim\"\nbody: \"x\"\nvalid_from: \"" + spelling + "\"\n")
                    .getBytes(StandardCharsets.UTF_8);
            assertThatThrownBy(() -> CanonicalFacts.decode(file, "a")).as(spelling).isInstanceOf(FormatException.class)
                    .satisfies(e -> assertThat(((FormatException) e).rule()).isEqualTo(Rule.VALID_TIME_MALFORMED))
                    .hasMessageContaining("valid_from");
        }
        byte[] inverted = "id: \"a\"\nkind: \"claim\"\nbody: \"x\"\nvalid_from: \"2021-03-01T00:00:00Z\"\nvalid_until: \"2021-03-01T00:00:00Z\"\n"
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> CanonicalFacts.decode(inverted, "a"))
                .satisfies(e -> assertThat(((FormatException) e).rule()).isEqualTo(Rule.VALID_TIME_INVERTED));
    }

    @Test
    void writersGiveAnInstantOrADateMeaningItsStartInUtc() {
        assertThat(Validity.parse("t", "2021-03-01")).isEqualTo(MARCH);
        assertThat(Validity.parse("t", "2021-03-01T01:00:00+01:00")).isEqualTo(MARCH);
        assertThatThrownBy(() -> Validity.parse("--valid-from", "March")).isInstanceOf(ValidTimeException.class)
                .hasMessageContaining("--valid-from").hasMessageContaining("'March'");
        assertThatThrownBy(() -> Validity.parse("t", "2021-03-01T00:00:00.5Z")).isInstanceOf(ValidTimeException.class);
    }

    @Test
    void theCliWritesValidityOnAssertReviseAndClaimAndShowsIt() throws Exception {
        assertThat(cmd("init", "--actor", "alice").code()).isZero();
        Run a = cmd("assert", "--actor", "alice", "--id", "ceo", "--body", "Ada is CEO", "--valid-from", "2021-03-01");
        assertThat(a.code()).as(a.err()).isZero();
        assertThat(cmd("show", "ceo", "--json").json().get("valid_from").asText()).isEqualTo("2021-03-01T00:00:00Z");
        assertThat(cmd("show", "ceo").out()).contains("valid:  [2021-03-01T00:00:00Z, open)");
        Run r = cmd("revise", "--actor", "alice", "ceo", "--valid-until", "2022-01-01");
        assertThat(r.code()).as(r.err()).isZero();
        var shown = cmd("show", "ceo", "--json").json();
        assertThat(shown.get("body").asText()).isEqualTo("Ada is CEO");
        assertThat(shown.get("valid_until").asText()).isEqualTo("2022-01-01T00:00:00Z");
        Run bad = cmd("assert", "--actor", "alice", "--body", "x", "--valid-from", "last week", "--json");
        assertThat(bad.code()).isEqualTo(5);
        assertThat(bad.out()).contains("valid-time-malformed");
        Run inverted = cmd("assert", "--actor", "alice", "--body", "x", "--valid-from", "2022-01-01",
                "--valid-until", "2021-01-01", "--json");
        assertThat(inverted.code()).isEqualTo(5);
        assertThat(inverted.out()).contains("valid-time-inverted");
        assertThat(cmd("assert", "--actor", "alice", "--id", "doc", "--kind", "source", "--body", "minutes").code()).isZero();
        Run c = cmd("claim", "--actor", "alice", "--subject", "acme", "--predicate", "ceo", "--object", "Ada", "--source", "doc", "--valid-from",
                "2021-03-01T00:00:00Z", "--json");
        assertThat(c.code()).as(c.err() + c.out()).isZero();
    }

    @Test
    void anIngestBatchCarriesValidityOnClaimsAndAssertions() throws Exception {
        assertThat(cmd("init", "--actor", "alice").code()).isZero();
        Path batch = dir.resolve("batch.yaml");
        Files.writeString(batch, """
                sources:
                - id: doc
                  body: "Board minutes: Ada became CEO in March 2021."
                claims:
                - id: c1
                  subject: acme
                  predicate: ceo
                  object: Ada
                  source: doc
                  valid_from: 2021-03-01
                """);
        Run r = cmd("ingest", "--actor", "alice", "--file", batch.toString());
        assertThat(r.code()).as(r.err() + r.out()).isZero();
        assertThat(cmd("show", "c1", "--json").json().get("valid_from").asText()).isEqualTo("2021-03-01T00:00:00Z");
        Files.writeString(batch, """
                claims:
                - id: c2
                  subject: acme
                  predicate: ceo
                  object: Bob
                  source: doc
                  valid_from: soon
                """);
        Run bad = cmd("ingest", "--actor", "alice", "--file", batch.toString(), "--json");
        assertThat(bad.code()).isEqualTo(5);
        assertThat(bad.out()).contains("valid-time-malformed");
    }
}
