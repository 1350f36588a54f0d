package dev.palimpsest.api;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.ImportOptions;
import dev.palimpsest.model.ImportResult;
import dev.palimpsest.model.IngestResult;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NoteSplit;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BulkLoadingTest {
    private static final String CLAIMS = """
            sources:
              - {id: runbook-7, body: "The payments service times out after 30 seconds under load."}
            claims:
              - {id: c-timeout-30, subject: payments, predicate: timeout, object: 30s, source: runbook-7,
                 quote: "times out after 30 seconds", confidence: 0.7, run: run-1}
              - subject: payments
                predicate: owner
                object: team-a
                sources: [{id: runbook-7}]
            """;

    @TempDir
    Path dir;
    Store store;

    @BeforeEach
    void open() throws Exception {
        store = TestStores.init(dir);
    }

    @org.junit.jupiter.api.AfterEach
    void close() {
        store.close();
    }

    private IngestResult ingest(String text) throws Exception {
        return store.receipts().ingest(ALICE, text.getBytes(StandardCharsets.UTF_8), false);
    }

    @Test
    void ingestedClaimsAreSeenByCurrentChainAndDeadEnds() throws Exception {
        IngestResult first = ingest(CLAIMS);
        assertThat(first.kinds()).containsEntry("entity-claim", 2).containsEntry("source", 1);
        CommitId at = first.commit().id();
        assertThat(store.claims().at(at).current("payments", "timeout")).extracting(ClaimView::object).containsExactly("30s");
        assertThat(store.claims().at(at).current("payments")).hasSize(2);

        IngestResult fix = ingest("""
                {"claims": [{"id": "c-timeout-45", "subject": "payments", "predicate": "timeout", "object": "45s",
                             "source": "runbook-7", "supersedes": "c-timeout-30"}]}
                """);
        CommitId now = fix.commit().id();
        assertThat(store.log(0)).hasSize(3);
        assertThat(store.claims().at(now).current("payments", "timeout")).extracting(ClaimView::object).containsExactly("45s");
        assertThat(store.claims().at(now).chain("payments", "timeout")).extracting(c -> c.id().value())
                .containsExactly("c-timeout-30", "c-timeout-45");
        assertThat(store.claims().at(now).deadEnds("payments", 10).kept()).extracting(c -> c.id().value())
                .containsExactly("c-timeout-30");
    }

    @Test
    void malformedYamlAndJsonNameTheLineAndWriteNothing() throws Exception {
        Set<String> before = TestStores.durableState(store.gitDir());
        RejectedException yaml = catchThrowableOfType(RejectedException.class,
                () -> ingest("claims:\n  - {subject: a, predicate: b\n  - x: [\n"));
        assertThat(yaml.violations()).singleElement().satisfies(v -> {
            assertThat(v.rule()).isEqualTo(Rule.INVALID_BATCH);
            assertThat(v.message()).startsWith("not valid YAML at line ");
        });
        RejectedException json = catchThrowableOfType(RejectedException.class,
                () -> ingest("{\"claims\": [\n  {\"subject\": \"a\",,}\n]}"));
        assertThat(json.violations()).singleElement().satisfies(v -> assertThat(v.message())
                .startsWith("not valid JSON at line 2, column "));
        RejectedException fields = catchThrowableOfType(RejectedException.class,
                () -> ingest("claims:\n  - {subject: a, predicate: b, source: s}\n  - {id: c2, subject: a, predicate: b,"
                        + " object: c, source: s, colour: red}\n"));
        assertThat(fields.violations()).extracting(Violation::subject).containsExactly("claims[0]", "claim c2");
        assertThat(fields.violations().get(0).message()).contains("missing field 'object'");
        assertThat(fields.violations().get(1).message()).contains("unknown field 'colour'");
        assertThat(TestStores.durableState(store.gitDir())).isEqualTo(before);
    }

    @Test
    void aClaimCitingAMissingSourceIsRejectedAndNothingIsWritten() throws Exception {
        Set<String> before = TestStores.durableState(store.gitDir());
        RejectedException e = catchThrowableOfType(RejectedException.class, () -> ingest(
                "claims:\n  - {id: c1, subject: payments, predicate: timeout, object: 30s, source: no-such-source}\n"));
        assertThat(e.violations()).anySatisfy(v -> {
            assertThat(v.subject()).contains("c1").contains("no-such-source");
            assertThat(v.rule()).isEqualTo(Rule.REF_TARGET_MISSING);
        });
        assertThat(TestStores.durableState(store.gitDir())).isEqualTo(before);
    }

    @Test
    void importAddsNotesThenWritesNothingForAnUnchangedFolderAndRevisesAChangedNote() throws Exception {
        Path notes = Files.createDirectories(dir.resolve("notes/Projects"));
        Files.writeString(notes.resolve("Q3 Plan.md"), "# Q3\n\nShip the importer.\n");
        Files.writeString(dir.resolve("notes/timeouts.md"),
                "---\nid: timeouts\nconfidence: 0.9\n---\nPayments time out after 30 s.\n");
        Files.writeString(dir.resolve("notes/tagged.md"), "---\ntitle: Tagged\ntags: [a, b]\n---\nBody.\n");
        Files.writeString(dir.resolve("notes/.hidden.md"), "never read");
        Files.writeString(dir.resolve("notes/readme.txt"), "not markdown");

        ImportResult r = store.bulk().importNotes(ALICE, dir.resolve("notes"), ImportOptions.defaults());
        assertThat(r.commit()).isPresent();
        assertThat(r.added()).extracting(FactId::value)
                .containsExactly("note-projects.q3-plan", "note-tagged", "timeouts");
        FactRead tagged = store.read(FactId.of("note-tagged"), store.head());
        assertThat(((FactRead.Found) tagged).fact().body()).isEqualTo("---\ntitle: Tagged\ntags: [a, b]\n---\nBody.");
        FactRead.Found timeouts = (FactRead.Found) store.read(FactId.of("timeouts"), store.head());
        assertThat(timeouts.fact().body()).isEqualTo("Payments time out after 30 s.");
        assertThat(timeouts.fact().confidence()).isEqualTo(0.9);
        assertThat(timeouts.fact().kind()).isEqualTo(Kind.SOURCE);

        Set<String> before = TestStores.durableState(store.gitDir());
        ImportResult again = store.bulk().importNotes(ALICE, dir.resolve("notes"), ImportOptions.defaults());
        assertThat(again.commit()).isEmpty();
        assertThat(again.unchanged()).isEqualTo(3);
        assertThat(TestStores.durableState(store.gitDir())).isEqualTo(before);

        Files.writeString(dir.resolve("notes/timeouts.md"),
                "---\nid: timeouts\nconfidence: 0.9\n---\nPayments time out after 45 s.\n");
        ImportResult changed = store.bulk().importNotes(ALICE, dir.resolve("notes"), ImportOptions.defaults());
        assertThat(changed.revised()).extracting(FactId::value).containsExactly("timeouts");
        assertThat(changed.unchanged()).isEqualTo(2);
        assertThat(store.history(FactId.of("timeouts"))).hasSize(2);
    }

    @Test
    void importSplitsNotesIntoSectionsAtTheGivenHeadingLevel() throws Exception {
        Path notes = Files.createDirectories(dir.resolve("notes"));
        Files.writeString(notes.resolve("ops.md"), "Intro line.\n\n## Timeouts\nThirty seconds.\n\n```\n## not a heading\n```\n"
                + "## Owners\nTeam A.\n## Owners\nTeam B.\n");
        ImportResult r = store.bulk().importNotes(ALICE, notes, ImportOptions.defaults().split(NoteSplit.H2));
        assertThat(r.added()).extracting(FactId::value)
                .containsExactly("note-ops", "note-ops.timeouts", "note-ops.owners", "note-ops.owners-2");
        FactRead.Found t = (FactRead.Found) store.read(FactId.of("note-ops.timeouts"), store.head());
        assertThat(t.fact().body()).isEqualTo("## Timeouts\nThirty seconds.\n\n```\n## not a heading\n```");
    }

    @Test
    void brokenFrontMatterNamesTheFileAndLineAndWritesNothing() throws Exception {
        Path notes = Files.createDirectories(dir.resolve("notes"));
        Files.writeString(notes.resolve("good.md"), "Fine.\n");
        Files.writeString(notes.resolve("bad.md"), "---\nid: x\ntags: [a, b\n---\nText.\n");
        Files.writeString(notes.resolve("open.md"), "---\nid: y\nText.\n");
        Files.writeString(notes.resolve("conf.md"), "---\nconfidence: lots\n---\nText.\n");
        Set<String> before = TestStores.durableState(store.gitDir());
        RejectedException e = catchThrowableOfType(RejectedException.class,
                () -> store.bulk().importNotes(ALICE, notes, ImportOptions.defaults()));
        assertThat(e.violations()).extracting(Violation::subject)
                .containsExactly("note bad.md", "note conf.md", "note open.md");
        assertThat(e.violations().get(0).message()).startsWith("line 3: the front matter is not valid YAML");
        assertThat(e.violations().get(1).message()).startsWith("field 'confidence': must be a number in [0, 1]");
        assertThat(e.violations().get(2).message()).startsWith("line 1: the front matter opened by '---' is never closed");
        assertThat(TestStores.durableState(store.gitDir())).isEqualTo(before);

        RejectedException notFolder = catchThrowableOfType(RejectedException.class,
                () -> store.bulk().importNotes(ALICE, notes.resolve("good.md"), ImportOptions.defaults()));
        assertThat(notFolder.violations()).singleElement().satisfies(v -> assertThat(v.rule()).isEqualTo(Rule.FILE_UNREADABLE));
    }

    @Test
    void idsFromPathsAreDeterministicAndFitTheIdRule() {
        assertThat(dev.palimpsest.internal.bulk.Notes.idFromPath("note-", "Projects/Q3 Plan (draft).md"))
                .isEqualTo("note-projects.q3-plan-draft");
        assertThat(dev.palimpsest.internal.bulk.Notes.idFromPath("", "Été/Über.markdown")).isEqualTo("ete.uber");
        String longId = dev.palimpsest.internal.bulk.Notes.idFromPath("note-", "a/" + "x".repeat(200) + ".md");
        assertThat(longId).hasSize(80).matches("[a-z0-9][a-z0-9._-]*-[0-9a-f]{8}");
        assertThat(dev.palimpsest.internal.bulk.Notes.idFromPath("note-", "a/" + "x".repeat(200) + ".md")).isEqualTo(longId);
    }

    @Test
    void exportWritesTheLiveFactsAsJsonLinesWithSealedContentWithheld() throws Exception {
        ingest(CLAIMS);
        Transaction tx = store.begin(ALICE);
        tx.assertFact(FactSpec.of(Kind.of("note"), "the secret plan").id(FactId.of("secret")).asSensitive());
        tx.assertFact(FactSpec.of(Kind.of("note"), "a wrong note").id(FactId.of("wrong")));
        tx.commit();
        store.begin(ALICE).retract(FactId.of("wrong"), "wrong").commit();

        StringBuilder out = new StringBuilder();
        int n = store.bulk().export(store.head(), out);
        List<String> lines = out.toString().lines().toList();
        assertThat(n).isEqualTo(lines.size()).isEqualTo(4);
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> facts = lines.stream().map(l -> {
            try {
                return json.readTree(l);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
        assertThat(facts).extracting(f -> f.get("id").asText()).containsExactly("c-timeout-30",
                facts.get(1).get("id").asText(), "runbook-7", "secret");
        List<String> fields = List.of("id", "kind", "content", "body", "subject", "predicate", "object", "confidence",
                "run", "refs", "receipt", "retain_until");
        assertThat(facts).allSatisfy(f -> assertThat(iterable(f.fieldNames())).containsExactlyElementsOf(fields));
        JsonNode claim = facts.get(0);
        assertThat(claim.get("kind").asText()).isEqualTo("entity-claim");
        assertThat(claim.get("subject").asText()).isEqualTo("payments");
        assertThat(claim.get("refs").get(0).get("quote").asText()).isEqualTo("times out after 30 seconds");
        JsonNode secret = facts.get(3);
        assertThat(secret.get("content").asText()).isEqualTo("withheld");
        assertThat(secret.get("body").isNull()).isTrue();
        assertThat(out.toString()).doesNotContain("the secret plan").doesNotContain("a wrong note");

        StringBuilder all = new StringBuilder();
        store.bulk().export(store.head(), true, all);
        assertThat(all.toString()).contains("\"content\":\"sealed\",\"body\":\"the secret plan\"");

        store.erasure().forget(ALICE, List.of(FactId.of("secret")), "erasure request", false);
        StringBuilder after = new StringBuilder();
        assertThat(store.bulk().export(store.head(), true, after)).isEqualTo(3);
        assertThat(after.toString()).doesNotContain("secret");
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
