package dev.palimpsest.internal.rules;

import dev.palimpsest.internal.layout.FileMeta;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.Rule;
import java.util.Collection;
import java.util.function.Predicate;

/**
 * The rules of a produced file's record (a fact of kind {@code file}) that the commit's tree alone
 * decides, run by the gate on a write and by the audit on every new or revised record version: the
 * body is canonical {@link FileMeta} for the name the id is derived from, the content it names is
 * in the commit's tree, and the record cites a source (ref role {@code source}). That a parent is
 * a produced file needs the parent's kind at its pin: the gate's alone. Stateless; arguments must
 * not be null.
 */
public final class FileRules {
    private FileRules() {}

    /** True when {@code f} is a produced file's record (kind {@code file}). */
    public static boolean isRecord(Fact f) {
        return FileMeta.KIND.equals(f.kind().value());
    }

    /**
     * The record's body, id and content ({@code inTree} says whether a content path is in the
     * commit's tree); true when no rule broke. Facts of other kinds pass.
     */
    public static boolean record(Fact f, Predicate<String> inTree, RuleSink sink) {
        if (!isRecord(f)) {
            return true;
        }
        FileMeta m = FileMeta.decode(f.body());
        if (m == null) {
            sink.report(Rule.INVALID_FILE_RECORD, "the body of a file record must be canonical file metadata "
                    + "(use file put)");
            return false;
        }
        if (!FileMeta.idOf(m.name()).equals(f.id())) {
            sink.report(Rule.INVALID_FILE_RECORD, "the record of a file named " + FileMeta.quote(m.name()) + " is "
                    + FileMeta.idOf(m.name()) + " (use file put)");
            return false;
        }
        if (!inTree.test(m.contentPath())) {
            sink.report(Rule.INVALID_FILE_RECORD, "names content " + m.contentPath()
                    + ", which the commit's tree does not hold (use file put)");
            return false;
        }
        return true;
    }

    /** The record {@code f} cites a source; true when it does or is not a record. */
    public static boolean source(Fact f, RuleSink sink) {
        return !isRecord(f) || source(f.refs().stream().map(Ref::role).toList(), sink);
    }

    /** A record whose refs have the roles {@code roles} cites a source; true when it does. */
    public static boolean source(Collection<RefRole> roles, RuleSink sink) {
        if (roles.stream().noneMatch(RefRole.SOURCE::equals)) {
            sink.report(Rule.FILE_SOURCE_REQUIRED, "a produced file cites a source (ref role 'source'; file put "
                    + "--source)");
            return false;
        }
        return true;
    }
}
