package dev.palimpsest.internal.audit;

import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Rule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;

/**
 * One commit under audit, as every {@link AuditCheck} sees it: the parsed commit object, its first
 * parent and that parent's tree, the paths it changed, object access for the checking thread, and
 * the violations found so far. Confined to the thread that checks the commit.
 */
public final class AuditedCommit {
    private final AuditRun run;
    private final ObjectId id;
    private final CommitId commitId;
    private final RawCommit raw;
    private final ObjectId parent;
    private final ObjectId parentTree;
    private final List<Change> changes;
    private final Map<String, Change> byPath;
    private final Reading reading;
    private final List<AuditViolation> violations = new ArrayList<>(0);
    private int files;
    private int refs;
    private int signatures;
    private dev.palimpsest.internal.crypto.CommitSignature signature;

    AuditedCommit(AuditRun run, ObjectId id, RawCommit raw, ObjectId parentTree, List<Change> changes,
            Reading reading) {
        this.run = run;
        this.id = id;
        this.commitId = CommitId.of(id.name());
        this.raw = raw;
        this.parent = raw.parents().isEmpty() ? null : raw.parents().get(0);
        this.parentTree = parentTree;
        this.changes = List.copyOf(changes);
        this.byPath = new HashMap<>();
        for (Change c : changes) {
            byPath.put(c.path(), c);
        }
        this.reading = reading;
    }

    public ObjectId id() {
        return id;
    }

    public CommitId commitId() {
        return commitId;
    }

    public RawCommit raw() {
        return raw;
    }

    /** The first parent, or null for a genesis commit. */
    public ObjectId parent() {
        return parent;
    }

    /** The first parent's tree, or null for a genesis commit. */
    public ObjectId parentTree() {
        return parentTree;
    }

    public ObjectId tree() {
        return raw.tree();
    }

    /** Every file path this commit changed against its first parent. */
    public List<Change> changes() {
        return changes;
    }

    /** The change at {@code path}, or null when the commit left it alone. */
    public Change change(String path) {
        return byPath.get(path);
    }

    public Reading reading() {
        return reading;
    }

    /**
     * The commit's parsed {@code gpgsig} signature, parsed once for every check that needs it.
     *
     * @throws IllegalArgumentException when the commit has none or it does not parse
     */
    public dev.palimpsest.internal.crypto.CommitSignature signature() {
        if (signature == null) {
            if (raw.signature() == null) {
                throw new IllegalArgumentException("the commit carries no signature");
            }
            signature = dev.palimpsest.internal.crypto.CommitSignature.parse(raw.signature());
        }
        return signature;
    }

    /** Reports a violation; {@code path} null means the commit itself. */
    public void violation(String path, Rule rule, String message) {
        violations.add(new AuditViolation(commitId, path, rule, message));
    }

    /** The blob at {@code path} in this commit's tree, or null. */
    public ObjectId blobAt(String path) throws IOException {
        Change c = byPath.get(path);
        if (c != null) {
            return c.newBlob();
        }
        return reading.blobAt(raw.tree(), path);
    }

    /** The blob at {@code path} in the first parent's tree, or null (always null for genesis). */
    public ObjectId parentBlobAt(String path) throws IOException {
        Change c = byPath.get(path);
        if (c != null) {
            return c.oldBlob();
        }
        return parentTree == null ? null : reading.blobAt(parentTree, path);
    }

    /** The decoded fact in {@code blob} (cached across the audit), or null when it does not decode. */
    public Fact fact(ObjectId blob) throws IOException {
        return run.fact(reading, blob);
    }

    /** True when another check explains changes at {@code path}. */
    boolean explainedElsewhere(String path) {
        return run.explains(path);
    }

    AuditRun run() {
        return run;
    }

    void countFile() {
        files++;
    }

    void countRef() {
        refs++;
    }

    void countSignature() {
        signatures++;
    }

    List<AuditViolation> violations() {
        return violations;
    }

    int files() {
        return files;
    }

    int refs() {
        return refs;
    }

    int signatures() {
        return signatures;
    }
}
