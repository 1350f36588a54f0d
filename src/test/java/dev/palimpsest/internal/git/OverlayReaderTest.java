package dev.palimpsest.internal.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.internal.storage.dfs.DfsRepositoryDescription;
import org.eclipse.jgit.internal.storage.dfs.InMemoryRepository;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.junit.jupiter.api.Test;

/** An overlay answers for the objects it holds, with their types, and asks the repository for the rest. */
class OverlayReaderTest {
    private static final byte[] HELD = "held in memory\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] STORED = "in the repository, longer\n".getBytes(StandardCharsets.UTF_8);

    @Test
    void heldObjectsAreServedWithTheirTypeAndTheRestComeFromTheRepository() throws Exception {
        InMemoryRepository repo = new InMemoryRepository(new DfsRepositoryDescription("overlay"));
        ObjectId stored;
        try (ObjectInserter ins = repo.newObjectInserter()) {
            stored = ins.insert(Constants.OBJ_BLOB, STORED);
            ins.flush();
        }
        ObjectId held;
        try (ObjectInserter.Formatter f = new ObjectInserter.Formatter()) {
            held = f.idFor(Constants.OBJ_BLOB, HELD);
        }
        Map<ObjectId, ObjectLoader> memory = Map.of(held, new ObjectLoader.SmallObject(Constants.OBJ_BLOB, HELD));
        ObjectId absent = ObjectId.fromString("0123456789abcdef0123456789abcdef01234567");
        try (ObjectReader r = new OverlayReader(memory::get, repo.newObjectReader()); ObjectReader again = r.newReader()) {
            for (ObjectReader each : new ObjectReader[] {r, again}) {
                assertThat(each.open(held).getCachedBytes()).isEqualTo(HELD);
                assertThat(each.open(held, Constants.OBJ_BLOB).getType()).isEqualTo(Constants.OBJ_BLOB);
                assertThat(each.open(stored, Constants.OBJ_BLOB).getCachedBytes()).isEqualTo(STORED);
                assertThat(each.has(held)).isTrue();
                assertThat(each.has(stored)).isTrue();
                assertThat(each.has(absent)).isFalse();
                assertThat(each.has(held, Constants.OBJ_BLOB)).isTrue();
                assertThat(each.has(held, Constants.OBJ_TREE)).isFalse();
                assertThat(each.has(held, ObjectReader.OBJ_ANY)).isTrue();
                assertThat(each.has(stored, Constants.OBJ_BLOB)).isTrue();
                assertThat(each.getObjectSize(held, Constants.OBJ_BLOB)).isEqualTo(HELD.length);
                assertThat(each.getObjectSize(stored, Constants.OBJ_BLOB)).isEqualTo(STORED.length);
                assertThatThrownBy(() -> each.open(held, Constants.OBJ_TREE)).isInstanceOf(IncorrectObjectTypeException.class);
                assertThatThrownBy(() -> each.open(absent)).isInstanceOf(MissingObjectException.class);
            }
        }
    }
}
