package dev.palimpsest.internal.bulk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NoteSplit;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A folder of markdown notes read as facts: every {@code .md} or {@code .markdown} file below it
 * (hidden files and folders skipped), in path order, one fact per file or per section. A note may
 * open with YAML front matter between two {@code ---} lines; its keys {@code id}, {@code kind},
 * {@code confidence}, {@code run}, {@code sensitive} and {@code retain_until} become the fact's
 * fields. Any other key (title, tags, ...) has no fact field, so the front matter then stays at the
 * head of the body as written and nothing of the note is lost. A note without an {@code id} gets one
 * from its path ({@link #idFromPath}). Problems are collected, each naming the file and the line or
 * field, instead of thrown. Not thread-safe.
 */
public final class Notes {
    /** One fact read from a note: where it came from and what to write. */
    public record Note(String path, FactSpec spec) {}

    private static final Set<String> MAPPED = Set.of("id", "kind", "confidence", "run", "sensitive", "retain_until");
    private static final Set<Kind> REFUSED = Set.of(Kind.ASSERTION, Kind.ENTITY_CLAIM, Kind.MERGE, Kind.EDGE,
            Kind.SUMMARY, Kind.of("file"));
    private static final YAMLMapper YAML = new YAMLMapper();

    public final List<Note> notes = new ArrayList<>();
    public final List<Violation> problems = new ArrayList<>();
    private final Map<String, String> ids = new HashMap<>();

    private Notes() {}

    /** Reads every note below {@code dir}; {@code prefix} starts the ids made from paths. */
    public static Notes read(Path dir, NoteSplit split, String prefix) {
        return read(dir, split, prefix, false);
    }

    /**
     * Reads every note below {@code dir}; {@code prefix} starts the ids made from paths; {@code
     * numbered}: a section's id is the note's, a dot and its position (0 the text before the first
     * heading, then 1, 2, ...), not its heading's slug.
     */
    public static Notes read(Path dir, NoteSplit split, String prefix, boolean numbered) {
        Notes out = new Notes();
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> !hidden(dir, p) && Files.isRegularFile(p) && isMarkdown(p))
                    .sorted(java.util.Comparator.comparing(p -> rel(dir, p))).toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            out.problems.add(new Violation(Rule.FILE_UNREADABLE, "folder " + dir, "cannot list its files: " + e.getMessage()));
            return out;
        }
        for (Path f : files) {
            out.file(rel(dir, f), f, split, prefix, numbered);
        }
        return out;
    }

    private static boolean isMarkdown(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".md") || n.endsWith(".markdown");
    }

    private static boolean hidden(Path dir, Path p) {
        for (Path part : dir.relativize(p)) {
            if (part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    private static String rel(Path dir, Path p) {
        return dir.relativize(p).toString().replace(java.io.File.separatorChar, '/');
    }

    private void file(String rel, Path path, NoteSplit split, String prefix, boolean numbered) {
        String what = "note " + rel;
        String text;
        try {
            byte[] bytes = Files.readAllBytes(path);
            if (bytes.length > dev.palimpsest.model.Limits.MAX_BODY) {
                problems.add(new Violation(Rule.TOO_LARGE, what, "the note is " + dev.palimpsest.model.Limits.describe(bytes.length)
                        + ", over the limit of " + dev.palimpsest.model.Limits.describe(dev.palimpsest.model.Limits.MAX_BODY)));
                return;
            }
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            problems.add(new Violation(Rule.INVALID_UTF8, what, "is not valid UTF-8"));
            return;
        } catch (IOException e) {
            problems.add(new Violation(Rule.FILE_UNREADABLE, what, "cannot be read: " + e.getMessage()));
            return;
        }
        text = text.replace("\r\n", "\n");
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        String[] lines = text.split("\n", -1);
        int bodyStart = 0;
        JsonNode front = null;
        boolean keepFront = false;
        if (lines.length > 0 && lines[0].strip().equals("---")) {
            int close = -1;
            for (int i = 1; i < lines.length; i++) {
                if (lines[i].strip().equals("---") || lines[i].strip().equals("...")) {
                    close = i;
                    break;
                }
            }
            if (close < 0) {
                problem(what, "line 1: the front matter opened by '---' is never closed (no '---' line after it)");
                return;
            }
            String yaml = String.join("\n", java.util.Arrays.asList(lines).subList(1, close));
            try {
                front = yaml.isBlank() ? YAML.createObjectNode() : YAML.readTree(yaml);
            } catch (IOException e) {
                int line = 1;
                if (e instanceof com.fasterxml.jackson.core.JsonProcessingException p && p.getLocation() != null
                        && p.getLocation().getLineNr() > 0) {
                    line = p.getLocation().getLineNr() + 1;
                }
                problem(what, "line " + line + ": the front matter is not valid YAML: "
                        + e.getMessage().lines().findFirst().orElse("").replaceAll(" \\(for .*\\)$", ""));
                return;
            }
            if (front == null || front.isMissingNode() || front.isNull()) {
                front = YAML.createObjectNode();
            }
            if (!front.isObject()) {
                problem(what, "line 2: the front matter must be a mapping of keys to values");
                return;
            }
            Iterator<String> keys = front.fieldNames();
            while (keys.hasNext()) {
                keepFront |= !MAPPED.contains(keys.next());
            }
            bodyStart = close + 1;
        }
        FactSpec base;
        try {
            base = fields(what, front);
        } catch (IllegalArgumentException e) {
            problem(what, e.getMessage());
            return;
        }
        FactId given = front != null && front.hasNonNull("id") ? base.id() : null;
        String fileId = given != null ? given.value() : idFromPath(prefix, rel);
        List<String> bodyLines = java.util.Arrays.asList(lines).subList(keepFront ? 0 : bodyStart, lines.length);
        if (split == NoteSplit.FILE) {
            add(rel, base, fileId, String.join("\n", bodyLines).strip());
            return;
        }
        int from = keepFront ? bodyStart : 0;
        String head = keepFront ? String.join("\n", bodyLines.subList(0, bodyStart)) + "\n" : "";
        List<String> content = bodyLines.subList(from, bodyLines.size());
        String marker = "#".repeat(split.level()) + " ";
        List<Integer> starts = new ArrayList<>();
        boolean fence = false;
        for (int i = 0; i < content.size(); i++) {
            String l = content.get(i);
            if (l.startsWith("```") || l.startsWith("~~~")) {
                fence = !fence;
            }
            if (!fence && l.startsWith(marker)) {
                starts.add(i);
            }
        }
        String preamble = String.join("\n", content.subList(0, starts.isEmpty() ? content.size() : starts.get(0))).strip();
        if (!preamble.isEmpty() || starts.isEmpty()) {
            add(rel, base, numbered && !starts.isEmpty() ? fit(fileId + ".0", rel + "#-1") : fileId, (head + preamble).strip());
        }
        Map<String, Integer> seen = new HashMap<>();
        for (int s = 0; s < starts.size(); s++) {
            int end = s + 1 < starts.size() ? starts.get(s + 1) : content.size();
            String heading = content.get(starts.get(s)).substring(marker.length()).strip();
            String slug = slug(heading);
            int n = seen.merge(slug, 1, Integer::sum);
            String id = numbered ? fit(fileId + "." + (s + 1), rel + "#" + s)
                    : fit(fileId + "." + (slug.isEmpty() ? "section" : slug) + (n > 1 ? "-" + n : ""), rel + "#" + s);
            add(rel + " (section '" + heading + "')", base, id,
                    (head + String.join("\n", content.subList(starts.get(s), end))).strip());
        }
    }

    private void add(String where, FactSpec base, String id, String body) {
        String what = "note " + where;
        if (body.isBlank()) {
            problem(what, "has no text to store");
            return;
        }
        String before = ids.putIfAbsent(id, where);
        if (before != null) {
            problem(what, "its id '" + id + "' is also the id of note " + before + "; give one of them an 'id' in its front matter");
            return;
        }
        FactSpec spec;
        try {
            spec = new FactSpec(FactId.of(id), base.kind(), body, base.confidence(), List.of(), base.grounding(), base.run(),
                    base.sensitive(), base.retainUntil());
        } catch (IllegalArgumentException e) {
            problem(what, e.getMessage());
            return;
        }
        notes.add(new Note(where, spec));
    }

    /** The fact fields of the front matter (id, kind, confidence, run, sensitive, retain_until) on a placeholder body. */
    private static FactSpec fields(String what, JsonNode front) {
        FactSpec f = FactSpec.of(Kind.SOURCE, "placeholder");
        if (front == null) {
            return f;
        }
        JsonNode id = front.get("id");
        if (id != null && !id.isNull()) {
            f = f.id(FactId.of(scalar(id, "id")));
        }
        JsonNode kind = front.get("kind");
        if (kind != null && !kind.isNull()) {
            Kind k = Kind.of(scalar(kind, "kind"));
            if (REFUSED.contains(k)) {
                throw new IllegalArgumentException("field 'kind': a note cannot be of kind '" + k
                        + "' (assertions, claims and artifacts carry a triple or receipt: load them with ingest)");
            }
            f = new FactSpec(f.id(), k, f.body(), f.confidence(), f.refs(), f.grounding(), f.run(), f.sensitive(),
                    f.retainUntil());
        }
        JsonNode c = front.get("confidence");
        if (c != null && !c.isNull()) {
            if (!c.isNumber() || !(c.doubleValue() >= 0 && c.doubleValue() <= 1)) {
                throw new IllegalArgumentException("field 'confidence': must be a number in [0, 1], got " + c);
            }
            f = f.confidence(c.doubleValue());
        }
        JsonNode run = front.get("run");
        if (run != null && !run.isNull()) {
            String r = scalar(run, "run");
            if (!dev.palimpsest.model.Fact.validRun(r)) {
                throw new IllegalArgumentException("field 'run': '" + r + "' does not match [A-Za-z0-9][A-Za-z0-9._:-]{0,79}");
            }
            f = f.run(r);
        }
        JsonNode sensitive = front.get("sensitive");
        if (sensitive != null && !sensitive.isNull()) {
            if (!sensitive.isBoolean()) {
                throw new IllegalArgumentException("field 'sensitive': must be true or false, got " + sensitive);
            }
            f = sensitive.booleanValue() ? f.asSensitive() : f;
        }
        JsonNode until = front.get("retain_until");
        if (until != null && !until.isNull()) {
            try {
                f = f.retainedUntil(Instant.parse(scalar(until, "retain_until")));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("field 'retain_until': '" + until.asText()
                        + "' is not an ISO-8601 instant such as 2027-01-01T00:00:00Z");
            }
        }
        return f;
    }

    private static String scalar(JsonNode n, String field) {
        if (!n.isValueNode()) {
            throw new IllegalArgumentException("field '" + field + "': must be a single value, got " + n);
        }
        return n.asText();
    }

    private void problem(String subject, String message) {
        problems.add(new Violation(Rule.INVALID_BATCH, subject, message));
    }

    /**
     * The id of the note at {@code rel} (a path with {@code /}): {@code prefix} then the path without
     * its extension, lower-cased, {@code /} as {@code .}, every run of other characters outside
     * {@code [a-z0-9._-]} as one {@code -}; over 80 characters it is cut and ends with {@code -} and 8
     * hex digits of the SHA-256 of {@code rel}, so it stays unique.
     */
    public static String idFromPath(String prefix, String rel) {
        String noExt = rel.replaceFirst("\\.(?i:md|markdown)$", "");
        StringBuilder b = new StringBuilder();
        for (String part : noExt.split("/")) {
            String s = slug(part);
            if (!s.isEmpty()) {
                b.append(b.length() == 0 ? "" : ".").append(s);
            }
        }
        String id = prefix + (b.length() == 0 ? "note" : b);
        if (!Character.isLetterOrDigit(id.charAt(0))) {
            id = "n" + id;
        }
        return fit(id, rel);
    }

    private static String fit(String id, String key) {
        if (id.length() <= 80) {
            return id;
        }
        return id.substring(0, 71).replaceAll("[._-]+$", "") + "-" + sha256(key).substring(0, 8);
    }

    /** Lower case; runs outside {@code [a-z0-9_]} become one {@code -}; no leading or trailing {@code -}. */
    static String slug(String s) {
        String lower = java.text.Normalizer.normalize(s, java.text.Normalizer.Form.NFKD)
                .replaceAll("\\p{M}", "").toLowerCase(Locale.ROOT);
        return lower.replaceAll("[^a-z0-9_]+", "-").replaceAll("^-+|-+$", "");
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
