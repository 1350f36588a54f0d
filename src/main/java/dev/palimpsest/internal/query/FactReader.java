package dev.palimpsest.internal.query;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.model.Fact;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;

/** Decodes fact blobs through a {@link FactCache}, each once per query. Not thread-safe; close it. */
final class FactReader implements AutoCloseable {
    private final ObjectReader reader;
    private final FactCache cache;

    FactReader(GitRepo repo) {
        this.cache = new FactCache(repo.vault());
        this.reader = repo.newReader();
    }

    /** The fact in {@code blob}, or null when the file is malformed. */
    Fact read(ObjectId blob) {
        return cache.get(reader, blob);
    }

    @Override
    public void close() {
        reader.close();
    }
}
