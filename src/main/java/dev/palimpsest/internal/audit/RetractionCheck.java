package dev.palimpsest.internal.audit;

import dev.palimpsest.model.Rule;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.model.FactId;
import java.io.IOException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Retraction records agree with the tree: a fact's file is removed exactly when its record is
 * written, in the same commit, and the record pins the removed version, by the commit's author; a
 * record is removed only when the fact is asserted again, and a re-asserted fact keeps no record.
 * Stateless.
 */
final class RetractionCheck implements AuditCheck {
    private static final Rule RULE = Rule.RETRACTION_INCONSISTENT;

    @Override
    public void check(AuditedCommit c) throws IOException {
        for (Change ch : c.changes()) {
            String p = ch.path();
            FactId id = p.endsWith(".yaml") ? StorePaths.idFromPath(p) : null;
            if (id == null) {
                continue;
            }
            if (StorePaths.candidatePaths(id).contains(p)) {
                factChange(c, ch, id);
            } else if (p.equals(StorePaths.retractionPath(id))) {
                recordChange(c, ch, id);
            }
        }
    }

    private static void factChange(AuditedCommit c, Change ch, FactId id) throws IOException {
        String record = StorePaths.retractionPath(id);
        Change r = c.change(record);
        Change tomb = c.change(StorePaths.tombstonePath(id));
        boolean forgotten = tomb != null && tomb.present() && tomb.kind() == Change.Kind.ADDED;
        if (ch.kind() == Change.Kind.DELETED && (r == null || !r.present()) && !forgotten) {
            c.violation(ch.path(), RULE, "the file of " + id + " was removed without writing its retraction record");
        } else if (ch.kind() == Change.Kind.ADDED && c.blobAt(record) != null) {
            c.violation(ch.path(), RULE, id + " was asserted but its retraction record " + record + " was kept");
        }
    }

    private static void recordChange(AuditedCommit c, Change ch, FactId id) throws IOException {
        if (!ch.present()) {
            if (added(c, id) == null) {
                c.violation(ch.path(), RULE, "the retraction record was removed without asserting " + id + " again");
            }
            return;
        }
        RetractionRecord rec;
        try {
            rec = FactCodec.decodeRetraction(c.reading().bytes(ch.newBlob(), Constants.OBJ_BLOB), ch.path());
        } catch (FormatException e) {
            return;
        }
        for (String p : StorePaths.candidatePaths(id)) {
            if (c.blobAt(p) != null) {
                c.violation(ch.path(), RULE, "a retraction record was written but the fact's file " + p
                        + " is still in the tree");
                return;
            }
        }
        Change removed = null;
        for (String p : StorePaths.candidatePaths(id)) {
            Change f = c.change(p);
            if (f != null && f.kind() == Change.Kind.DELETED) {
                removed = f;
            }
        }
        if (removed == null) {
            c.violation(ch.path(), RULE, "a retraction record was written but no file of " + id
                    + " was removed by this commit");
            return;
        }
        ObjectId pinned = ObjectId.fromString(rec.version().blob().hex());
        if (!pinned.equals(removed.oldBlob())) {
            c.violation(ch.path(), RULE, "the record pins blob " + pinned.name() + " but the removed version is "
                    + removed.oldBlob().name());
            return;
        }
        Pins.Problem p = Pins.check(c, id, ObjectId.fromString(rec.version().commit().hex()), pinned);
        if (p != null) {
            c.violation(ch.path(), RULE, "the record's version is wrong: " + p.message());
        }
        String author = c.raw().author() == null ? null : c.raw().author().name();
        if (!rec.actor().value().equals(author)) {
            c.violation(ch.path(), RULE, "the record names actor " + rec.actor() + " but the commit's author is "
                    + author);
        }
    }

    private static Change added(AuditedCommit c, FactId id) {
        for (String p : StorePaths.candidatePaths(id)) {
            Change f = c.change(p);
            if (f != null && f.kind() == Change.Kind.ADDED) {
                return f;
            }
        }
        return null;
    }
}
