package dev.palimpsest.internal.git;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Deletes the temporary files a killed process left in a folder of the git directory: those
 * matching a glob and last modified more than a given age ago. Best effort: a file that cannot be
 * read or deleted is only wasted space. Stateless.
 */
public final class StaleFiles {
    private StaleFiles() {}

    /** Deletes the files of {@code dir} matching {@code glob} older than {@code minAge}; returns how many. */
    public static int delete(Path dir, String glob, Duration minAge) {
        long before = System.currentTimeMillis() - minAge.toMillis();
        int n = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, glob)) {
            for (Path p : files) {
                try {
                    if (Files.getLastModifiedTime(p).toMillis() < before && Files.deleteIfExists(p)) {
                        n++;
                    }
                } catch (NoSuchFileException gone) {
                    // renamed or deleted meanwhile
                } catch (IOException e) {
                    // left for a later sweep
                }
            }
        } catch (IOException e) {
            // no folder, or unreadable: nothing to sweep
        }
        return n;
    }
}
