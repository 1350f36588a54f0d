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
     * Reports what is wrong with the record's body, id and content ({@code inTree} says whether a
     * content path is in the commit's tree), the first broken rule only. Facts of other kinds pass.
     */
    public static void record(Fact f, Predicate<String> inTree, RuleSink sink) {
        if (!isRecord(f)) {
            return;
        }
        FileMeta m = FileMeta.decode(f.body());
        if (m == null) {
            sink.report(Rule.INVALID_FILE_RECORD, "the body of a file record must be canonical file metadata "
                    + "(use file put)");
            return;
        }
        if (!FileMeta.idOf(m.name()).equals(f.id())) {
            sink.report(Rule.INVALID_FILE_RECORD, "the record of a file named " + FileMeta.quote(m.name()) + " is "
                    + FileMeta.idOf(m.name()) + " (use file put)");
            return;
        }
        if (!inTree.test(m.contentPath())) {
            sink.report(Rule.INVALID_FILE_RECORD, "names content " + m.contentPath()
                    + ", which the commit's tree does not hold (use file put)");
        }
    }

    /** Reports a record {@code f} that cites no source; facts of other kinds pass. */
    public static void source(Fact f, RuleSink sink) {
        if (isRecord(f)) {
            source(f.refs().stream().map(Ref::role).toList(), sink);
        }
    }

    /** Reports a record whose refs have the roles {@code roles} when none is a source. */
    public static void source(Collection<RefRole> roles, RuleSink sink) {
        if (roles.stream().noneMatch(RefRole.SOURCE::equals)) {
            sink.report(Rule.FILE_SOURCE_REQUIRED, "a produced file cites a source (ref role 'source'; file put "
                    + "--source)");
        }
    }
}
