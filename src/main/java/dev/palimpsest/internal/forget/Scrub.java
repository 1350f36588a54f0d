package dev.palimpsest.internal.forget;

import dev.palimpsest.model.PalimpsestInternalException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Deletes every cache under a store's git directory that may hold plaintext of sealed content:
 * the search index folder, the claims log, the entailment state, the judge cache (and their
 * partly written {@code *.tmp} files). Each is derived from git (or, the judge cache, only asked
 * again), and rebuilt caches skip content they cannot open. Run after a forget destroyed keys, by
 * a process that has closed its own handles on them. Stateless.
 */
public final class Scrub {
    private Scrub() {}

    /** The paths it deleted, relative to {@code gitDir}. */
    public static List<String> caches(Path gitDir) {
        Path idx = gitDir.resolve("palimpsest-index");
        List<String> deleted = new ArrayList<>();
        deleteTree(idx.resolve("search-v1"), gitDir, deleted);
        if (Files.isDirectory(idx)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(idx)) {
                for (Path p : ds) {
                    String n = p.getFileName().toString();
                    if (n.startsWith("claims-v1.log") || n.startsWith("entail-v1.state") || n.startsWith("judge-cache.jsonl")) {
                        deleteTree(p, gitDir, deleted);
                    }
                }
            } catch (IOException e) {
                throw new PalimpsestInternalException("cannot scrub " + idx + ": " + e.getMessage(), e);
            }
        }
        return deleted;
    }

    private static void deleteTree(Path p, Path gitDir, List<String> deleted) {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> all = Files.walk(p)) {
            for (Path q : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
            deleted.add(gitDir.relativize(p).toString());
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot scrub " + p + ": " + e.getMessage(), e);
        }
    }
}
