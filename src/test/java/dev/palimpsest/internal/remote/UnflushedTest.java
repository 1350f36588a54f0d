package dev.palimpsest.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.eclipse.jgit.internal.storage.dfs.DfsRepositoryDescription;
import org.eclipse.jgit.internal.storage.dfs.InMemoryRepository;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.junit.jupiter.api.Test;

/** The copy's unwritten objects are readable until the pack holding them is registered, then forgotten. */
class UnflushedTest {
    @Test
    void anObjectIsReadableUntilClearedAndThenComesFromTheRepositoryOnly() throws Exception {
        byte[] data = "a copied blob\n".getBytes(StandardCharsets.UTF_8);
        ObjectId id;
        try (ObjectInserter.Formatter f = new ObjectInserter.Formatter()) {
            id = f.idFor(Constants.OBJ_BLOB, data);
        }
        Unflushed u = new Unflushed();
        InMemoryRepository repo = new InMemoryRepository(new DfsRepositoryDescription("unflushed"));
        try (ObjectReader r = u.wrap(repo.newObjectReader())) {
            assertThat(r.has(id)).isFalse();
            u.put(id, Constants.OBJ_BLOB, data);
            assertThat(u.size()).isEqualTo(1);
            assertThat(r.open(id, Constants.OBJ_BLOB).getCachedBytes()).isEqualTo(data);
            u.clear();
            assertThat(u.size()).isZero();
            assertThat(r.has(id)).isFalse();
        }
    }
}
