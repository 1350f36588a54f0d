package dev.palimpsest.cli;

import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes the file an {@code --out} option names. A new or regular file is written whole or not at
 * all: to a temporary file in its folder, renamed over it. An existing file that is not regular (a
 * device such as {@code /dev/full}, a FIFO) is opened and written in place, never replaced. A
 * failure to write (e.g. no space left) is a rejection, rule {@code file-unwritable}. Stateless.
 */
final class OutFile {
    private OutFile() {}

    /** What goes into the file. */
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes {@code content} to {@code target}, named {@code option} in messages; an error reading
     * the content (not writing it) is thrown as is.
     *
     * @throws RejectedException when {@code target} is a folder or cannot be written
     */
    static void write(String option, Path target, Content content) throws RejectedException, IOException {
        String what = option + " " + target;
        if (Files.isDirectory(target)) {
            throw new RejectedException(Rule.FILE_UNWRITABLE, what, "is a folder");
        }
        try {
            if (Files.exists(target) && !Files.isRegularFile(target)) {
                try (OutputStream os = open(target, StandardOpenOption.WRITE)) {
                    content.writeTo(os);
                }
                return;
            }
            atomically(target, content);
        } catch (Unwritable e) {
            throw new RejectedException(Rule.FILE_UNWRITABLE, what, "cannot be written: " + e.getMessage());
        }
    }

    private static void atomically(Path target, Content content) throws IOException {
        Path tmp;
        try {
            tmp = Files.createTempFile(target.toAbsolutePath().getParent(), ".palimpsest-out", ".tmp");
        } catch (IOException e) {
            throw new Unwritable(e);
        }
        boolean moved = false;
        try {
            try (OutputStream os = open(tmp)) {
                content.writeTo(os);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new Unwritable(e);
            }
            moved = true;
        } finally {
            if (!moved) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    private static OutputStream open(Path p, OpenOption... options) throws Unwritable {
        try {
            return new Guarded(Files.newOutputStream(p, options));
        } catch (IOException e) {
            throw new Unwritable(e);
        }
    }

    /** A failure of the output itself, as opposed to one of the content's source. */
    private static final class Unwritable extends IOException {
        Unwritable(IOException cause) {
            super(cause.getClass() == IOException.class && cause.getMessage() != null ? cause.getMessage()
                    : cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage()),
                    cause);
        }
    }

    /** Marks every failure of the wrapped stream as {@link Unwritable}. */
    private static final class Guarded extends FilterOutputStream {
        Guarded(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw new Unwritable(e);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw new Unwritable(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw new Unwritable(e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                out.close();
            } catch (IOException e) {
                throw new Unwritable(e);
            }
        }
    }
}
