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
    void anObjectStaysReadableFromMemoryUntilTheSecondPackAfterItIsWritten() throws Exception {
        byte[] data = "a copied blob\n".getBytes(StandardCharsets.UTF_8);
        byte[] other = "the next pack's blob\n".getBytes(StandardCharsets.UTF_8);
        ObjectId id;
        ObjectId next;
        try (ObjectInserter.Formatter f = new ObjectInserter.Formatter()) {
            id = f.idFor(Constants.OBJ_BLOB, data);
            next = f.idFor(Constants.OBJ_BLOB, other);
        }
        Unflushed u = new Unflushed();
        InMemoryRepository repo = new InMemoryRepository(new DfsRepositoryDescription("unflushed"));
        try (ObjectReader r = u.wrap(repo.newObjectReader())) {
            assertThat(r.has(id)).isFalse();
            u.put(id, Constants.OBJ_BLOB, data);
            assertThat(u.size()).isEqualTo(1);
            assertThat(r.open(id, Constants.OBJ_BLOB).getCachedBytes()).isEqualTo(data);
            u.written();
            assertThat(u.size()).as("pending").isZero();
            assertThat(u.held()).isEqualTo(1);
            assertThat(r.open(id, Constants.OBJ_BLOB).getCachedBytes()).as("the pack written last").isEqualTo(data);
            u.put(next, Constants.OBJ_BLOB, other);
            assertThat(r.open(id, Constants.OBJ_BLOB).getCachedBytes()).isEqualTo(data);
            assertThat(r.open(next, Constants.OBJ_BLOB).getCachedBytes()).isEqualTo(other);
            u.written();
            assertThat(u.held()).isEqualTo(1);
            assertThat(r.has(id)).as("two packs ago: only the repository would have it").isFalse();
            assertThat(r.open(next, Constants.OBJ_BLOB).getCachedBytes()).isEqualTo(other);
            u.written();
            assertThat(u.held()).isZero();
            assertThat(r.has(next)).isFalse();
        }
    }
}
