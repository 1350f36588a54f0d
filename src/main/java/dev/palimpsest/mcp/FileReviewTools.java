package dev.palimpsest.mcp;

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
                        + " under a name, with mandatory provenance: the source fact it was produced from, and"
                        + " optionally parent files and claims it is about. One signed commit; identical bytes are"
                        + " stored once; a put that changes nothing writes nothing. Give content (UTF-8 text) or"
                        + " content_base64 (any bytes).",
                        Schema.input().string("name", "The file's name: metadata only, never used as a path.", true)
                                .string("content", "The file's text (UTF-8); this or content_base64.", false)
                                .string("content_base64", "The file's bytes, base64-encoded; this or content.", false)
                                .string("source", "The fact the file was produced from (pinned; must exist).", true)
                                .strings("parents", "Produced files (file-<16 hex>) this one derives from.", 0)
                                .strings("claims", "Facts the file is about.", 0),
                        Schema.output().field("id", "string").field("name", "string").field("sha256", "string")
                                .field("media_type", "string").field("commit", "string"),
                        false, a -> put(s, a)),
                ToolDef.write("review", "Review queue", "Without ack: the items that need review at a commit (artifacts"
                        + " touched by a retraction but still alive, artifacts pending cleanup, live facts whose refs"
                        + " went stale), unacknowledged. With ack: record that the item was reviewed at its current"
                        + " version (one signed commit); a later change re-opens it.",
                        Schema.input().string("at", ReadTools.AT + " (listing only)", false)
                                .string("ack", "Acknowledge this item at its current version.", false)
                                .string("note", "A note recorded with the acknowledgement.", false),
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
            StoredFile f = s.store().files().put(s.actor(), name, tmp, source, s.run(), parents, claims);
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
