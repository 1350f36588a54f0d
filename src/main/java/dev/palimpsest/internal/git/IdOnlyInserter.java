package dev.palimpsest.internal.git;

import java.io.IOException;
import java.io.InputStream;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;

/**
 * An inserter that computes object ids and stores nothing: for recomputing a tree's id (e.g. a
 * merge's) without writing it. Not thread-safe.
 */
public final class IdOnlyInserter extends ObjectInserter.Formatter {
    @Override
    public ObjectId insert(int type, byte[] data, int off, int len) {
        return idFor(type, data, off, len);
    }

    @Override
    public ObjectId insert(int type, long length, InputStream in) throws IOException {
        return idFor(type, length, in);
    }
}
