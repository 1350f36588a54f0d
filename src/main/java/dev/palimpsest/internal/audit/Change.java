package dev.palimpsest.internal.audit;

import java.util.Objects;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;

/**
 * One path a commit changed against its first parent: the old and new blob (null when absent)
 * and the new entry's raw mode (0 when absent). Immutable.
 */
public record Change(String path, ObjectId oldBlob, ObjectId newBlob, int newMode) {
    public Change {
        Objects.requireNonNull(path, "path");
        if (oldBlob == null && newBlob == null) {
            throw new IllegalArgumentException(path + ": a change needs an old or a new blob");
        }
    }

    /** What happened to the path. */
    public enum Kind { ADDED, MODIFIED, DELETED }

    public Kind kind() {
        if (oldBlob == null) {
            return Kind.ADDED;
        }
        return newBlob == null ? Kind.DELETED : Kind.MODIFIED;
    }

    /** True when the path holds a file after the commit. */
    public boolean present() {
        return newBlob != null;
    }

    /** True when the new entry is an ordinary (non-executable) file. */
    public boolean regularFile() {
        return newMode == FileMode.REGULAR_FILE.getBits();
    }
}
