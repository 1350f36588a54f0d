package dev.palimpsest.mcp;

import dev.palimpsest.api.ProducedFiles;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.StoredFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The tools file_put (produced files with provenance) and review (the review queue and its acknowledgements). Stateless. */
final class FileReviewTools {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FileReviewTools.class);
    private FileReviewTools() {}

    static List<ToolDef> all(Session s) {
        return List.of(
                ToolDef.write("file_put", "Store a produced file", "Store bytes you produced (a report, a table, code)"
                        + " under a name, with provenance: the source fact, any parent files and the claims it is"
                        + " about. Identical bytes are stored once.",
                        Schema.input().string("name", "Metadata only, never used as a path.", true)
                                .string("content", "UTF-8 text; this or content_base64.", false)
                                .string("content_base64", "Any bytes, base64; this or content.", false)
                                .string("source", "The fact it was produced from.", true)
                                .strings("parents", "Produced files (file-<16 hex>) it derives from.", 0)
                                .strings("claims", "Facts it is about.", 0),
                        Schema.output().field("id", "string").field("name", "string").field("sha256", "string")
                                .field("media_type", "string").field("commit", "string"),
                        false, a -> put(s, a)),
                ToolDef.write("review", "Review queue", "Without ack: what needs review at a commit (artifacts a"
                        + " retraction touched, pending cleanups, facts whose refs went stale). With ack: mark an"
                        + " item reviewed at its current version; a later change re-opens it.",
                        Schema.input().string("at", "Commit to list at (default: main's tip).", false)
                                .string("ack", "The item to acknowledge.", false)
                                .string("note", "A note with the acknowledgement.", false),
                        Schema.output().optionalField("items", "array").optionalField("item", "string")
                                .optionalField("ack", "string").optionalField("commit", "string"),
                        false, a -> review(s, a)));
    }

    /**
     * Stores the bytes the caller sent, never a path of the server's machine: an agent cannot make the
     * server commit a file it reads (a secret key in the key home, say).
     */
    private static Map<String, Object> put(Session s, Args a) throws Exception {
        String name = a.text("name");
        String content = a.optText("content");
        String base64 = a.optText("content_base64");
        if ((content == null) == (base64 == null)) {
            throw Args.invalid("content", "give exactly one of content and content_base64");
        }
        byte[] bytes;
        if (content != null) {
            bytes = content.getBytes(StandardCharsets.UTF_8);
        } else {
            try {
                bytes = Base64.getDecoder().decode(base64);
            } catch (IllegalArgumentException e) {
                throw Args.invalid("content_base64", "is not base64: " + e.getMessage());
            }
        }
        FactId source = a.fact("source");
        List<FactId> parents = a.facts("parents");
        List<FactId> claims = a.facts("claims");
        Path tmp = Files.createTempFile("palimpsest-mcp-", ".put");
        try {
            Files.write(tmp, bytes);
            ProducedFiles.Put put = ProducedFiles.Put.of(name, tmp, source).withParents(parents).withClaims(claims);
            StoredFile f = s.store().files().put(s.actor(), s.run() == null ? put : put.withRun(s.run()));
            return Views.storedFile(f);
        } finally {
            deleteQuietly(tmp);
        }
    }

    private static void deleteQuietly(Path tmp) {
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", tmp, e.getMessage());
        }
    }

    private static Map<String, Object> review(Session s, Args a) throws Exception {
        FactId item = a.optFact("ack");
        if (item == null) {
            if (a.optText("note") != null) {
                throw Args.invalid("note", "goes with ack");
            }
            return Views.listOf("items", s.store().receipts().review(a.at(s.store())).stream().map(Views::review)
                    .toList());
        }
        if (a.optText("at") != null) {
            throw Args.invalid("at", "an acknowledgement is made at main's tip; at goes with a listing only");
        }
        String note = a.optText("note");
        CommitResult r = note == null ? s.store().receipts().acknowledge(s.actor(), item)
                : s.store().receipts().acknowledge(s.actor(), item, note);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("item", item.value());
        m.put("ack", r.written().get(0).value());
        m.put("commit", r.id().hex());
        return m;
    }
}
