package dev.palimpsest.bench;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * A benchmark's built stores kept in a folder with the generator's state, so a later run starts where
 * the build ended instead of building again: {@link #save} copies the folder's files and the state
 * in; {@link #restore} copies the files into a fresh folder and returns the state. Files and folders
 * keep their permissions (a key home must stay owner-only). Stateless.
 */
final class KeptBench {
    private static final String STATE = "state.bin";

    private KeptBench() {}

    static boolean exists(Path kept) {
        return Files.isRegularFile(kept.resolve(STATE));
    }

    /** Copies every file of {@code from} into {@code kept} (replacing what is there) with {@code state}, written last. */
    static void save(Path from, Path kept, Serializable state) throws IOException {
        Files.createDirectories(kept);
        Files.deleteIfExists(kept.resolve(STATE));
        copy(from, kept);
        Path tmp = kept.resolve(STATE + ".tmp");
        try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(tmp))) {
            out.writeObject(state);
        }
        Files.move(tmp, kept.resolve(STATE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Copies the kept files into {@code to} and returns the kept state. */
    static <T> T restore(Path kept, Path to, Class<T> type) throws IOException {
        copy(kept, to);
        Files.deleteIfExists(to.resolve(STATE));
        try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(kept.resolve(STATE)))) {
            return type.cast(in.readObject());
        } catch (ClassNotFoundException | ClassCastException e) {
            throw new IOException("the kept benchmark state in " + kept + " is of another version: delete the folder", e);
        }
    }

    /** Copies every file and folder of {@code from} into {@code to}, with their permissions (not a kept state file). */
    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                    if (p.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                        Files.setPosixFilePermissions(q, Files.getPosixFilePermissions(p)); // a key folder stays 700
                    }
                } else if (Files.isRegularFile(p) && !p.getFileName().toString().equals(STATE)) {
                    Files.copy(p, q, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
