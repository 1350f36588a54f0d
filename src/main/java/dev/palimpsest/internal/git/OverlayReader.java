package dev.palimpsest.internal.git;

import java.io.IOException;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.lib.AnyObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * A reader that serves objects held in memory ahead of another reader's (objects staged before they
 * are written, or copied and not yet in a pack); every other object, and every other question, goes
 * to the other reader, which closing this one closes. Thread-safe as far as its lookup and the other
 * reader are.
 */
public final class OverlayReader extends ObjectReader.Filter {
    /** The objects held in memory. */
    @FunctionalInterface
    public interface Held {
        /** The object {@code id} when it is held, else null. */
        ObjectLoader get(AnyObjectId id);
    }

    private final Held held;
    private final ObjectReader base;

    public OverlayReader(Held held, ObjectReader base) {
        this.held = held;
        this.base = base;
    }

    @Override
    protected ObjectReader delegate() {
        return base;
    }

    @Override
    public ObjectReader newReader() {
        return new OverlayReader(held, base.newReader());
    }

    @Override
    public boolean has(AnyObjectId id) throws IOException {
        return held.get(id) != null || base.has(id);
    }

    @Override
    public boolean has(AnyObjectId id, int typeHint) throws IOException {
        ObjectLoader l = held.get(id);
        return l != null ? typeHint == OBJ_ANY || l.getType() == typeHint : base.has(id, typeHint);
    }

    @Override
    public ObjectLoader open(AnyObjectId id) throws IOException {
        return open(id, OBJ_ANY);
    }

    @Override
    public ObjectLoader open(AnyObjectId id, int typeHint) throws IOException {
        ObjectLoader l = held.get(id);
        if (l == null) {
            return base.open(id, typeHint);
        }
        if (typeHint != OBJ_ANY && l.getType() != typeHint) {
            throw new IncorrectObjectTypeException(id.toObjectId(), Constants.typeString(typeHint));
        }
        return l;
    }

    @Override
    public long getObjectSize(AnyObjectId id, int typeHint) throws IOException {
        ObjectLoader l = held.get(id);
        return l == null ? base.getObjectSize(id, typeHint) : open(id, typeHint).getSize();
    }
}
