package dev.palimpsest.internal.query;

import dev.palimpsest.api.PalimpsestInternalException;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.Fact;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;

/** Decodes fact blobs, each once per query. Not thread-safe; close it. */
final class FactReader implements AutoCloseable {
    private final ObjectReader reader;
    private final Map<ObjectId, Fact> cache = new HashMap<>();

    FactReader(GitRepo repo) {
        this.reader = repo.newReader();
    }

    /** The fact in {@code blob}, or null when the file is malformed. */
    Fact read(ObjectId blob) {
        if (cache.containsKey(blob)) {
            return cache.get(blob);
        }
        Fact f;
        try {
            f = FactCodec.decodeFact(reader.open(blob).getCachedBytes(16 << 20), blob.name());
        } catch (FormatException e) {
            f = null;
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read blob " + blob.name(), e);
        }
        cache.put(blob, f);
        return f;
    }

    @Override
    public void close() {
        reader.close();
    }
}
