package dev.palimpsest.api;

import dev.palimpsest.internal.bulk.ExportLine;
import dev.palimpsest.internal.bulk.LiveFacts;
import dev.palimpsest.internal.bulk.Notes;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.query.Commits;
import dev.palimpsest.internal.query.FactCache;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.ImportOptions;
import dev.palimpsest.model.ImportResult;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;

/**
 * Loads and unloads many facts at once: a folder of markdown notes imported as source facts
 * ({@link #importNotes}), and the facts live at a commit exported as JSON lines ({@link #export}).
 * Claims, assertions and artifacts are loaded by {@link Receipts#ingest}. Thread-safe; arguments
 * must not be null ({@link NullPointerException}).
 */
public final class Bulk {
    private final Store store;
    private final GitRepo repo;
    private final FactCache cache;

    Bulk(Store store, GitRepo repo) {
        this.store = store;
        this.repo = repo;
        this.cache = new FactCache(repo.vault());
    }

    /**
     * Imports the markdown notes below {@code dir} as one signed commit by {@code actor}: each note (or
     * section, see {@link ImportOptions#split()}) not stored yet is added, each whose text changed is
     * revised, and each stored as it is left alone, so importing an unchanged folder writes nothing
     * (the result has no commit). A note's YAML front matter gives its {@code id}, {@code kind}
     * (default {@code source}), {@code confidence}, {@code run}, {@code sensitive} and
     * {@code retain_until}; other keys (title, tags, ...) keep the front matter in the body. Without an
     * {@code id} the id comes from the note's path (docs/loading.md). Notes removed from the folder
     * stay in the store.
     *
     * @throws RejectedException {@code dir} is no folder, a note is not UTF-8, has broken front
     *     matter or a bad field (the violation names the file and the line or field), two notes
     *     would get one id, a stored note changed in something other than its text, its id was
     *     retracted, or the gate refuses a write; every problem is listed and nothing is written
     */
    public ImportResult importNotes(ActorName actor, Path dir, ImportOptions options)
            throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        if (!Files.isDirectory(dir)) {
            throw new RejectedException(Rule.FILE_UNREADABLE, "folder " + dir, "is not a folder");
        }
        Notes read = Notes.read(dir, options.split(), options.idPrefix(), options.numbered());
        List<Violation> problems = new ArrayList<>(read.problems);
        if (!problems.isEmpty()) {
            throw new RejectedException(problems);
        }
        if (read.notes.isEmpty()) {
            throw new RejectedException(Rule.EMPTY_BATCH, "folder " + dir, "holds no markdown note (*.md, *.markdown)");
        }
        CommitId head = store.head();
        Transaction tx = store.begin(actor);
        List<FactId> added = new ArrayList<>();
        List<FactId> revised = new ArrayList<>();
        int unchanged = 0;
        for (Notes.Note n : read.notes) {
            FactSpec spec = n.spec();
            FactRead stored;
            try {
                stored = store.read(spec.id(), head);
            } catch (NotFoundException e) {
                tx.assertFact(spec);
                added.add(spec.id());
                continue;
            }
            String what = "note " + n.path();
            if (stored instanceof FactRead.Retracted r) {
                problems.add(new Violation(Rule.NOT_LIVE, what, "fact " + spec.id() + " was retracted at "
                        + r.retractedAt().hex() + "; give the note another id"));
                continue;
            }
            Fact f = ((FactRead.Found) stored).fact();
            String differs = metadataDiffers(f, spec);
            if (differs != null) {
                problems.add(new Violation(Rule.INVALID_BATCH, what, "fact " + spec.id() + " is stored with another "
                        + differs + "; import revises only a note's text"));
            } else if (f.body().equals(spec.body())) {
                unchanged++;
            } else {
                tx.revise(spec.id(), spec.body(), List.of());
                revised.add(spec.id());
            }
        }
        if (!problems.isEmpty()) {
            throw new RejectedException(problems);
        }
        if (tx.size() == 0) {
            return new ImportResult(Optional.empty(), added, revised, unchanged);
        }
        return new ImportResult(Optional.of(tx.commit().id()), added, revised, unchanged);
    }

    /** The first field other than the text in which the stored fact and the note differ, or null. */
    private static String metadataDiffers(Fact f, FactSpec spec) {
        if (!f.kind().equals(spec.kind())) {
            return "kind (" + f.kind() + ", the note says " + spec.kind() + ")";
        }
        if (!Objects.equals(f.confidence(), spec.confidence())) {
            return "confidence (" + f.confidence() + ", the note says " + spec.confidence() + ")";
        }
        if (!Objects.equals(f.run(), spec.run())) {
            return "run (" + f.run() + ", the note says " + spec.run() + ")";
        }
        if ((f.seal() != null) != (spec.sensitive() || spec.retainUntil() != null)) {
            return f.seal() != null ? "sealing (sealed, the note is not sensitive)" : "sealing (in clear, the note is sensitive)";
        }
        if (f.seal() != null && !f.seal().open()) {
            return "state: its sealed content is unavailable (forgotten or its key is missing)";
        }
        if (!Objects.equals(f.retainUntil(), spec.retainUntil())) {
            return "retain_until (" + f.retainUntil() + ", the note says " + spec.retainUntil() + ")";
        }
        return null;
    }

    /**
     * Writes the facts live at {@code at} to {@code out} as JSON lines, one object per fact in id
     * order with fixed fields (docs/loading.md); sealed facts are listed with their content
     * withheld. Returns the number of lines.
     *
     * @throws NotFoundException when {@code at} is no commit of the store
     */
    public int export(CommitId at, Appendable out) throws NotFoundException {
        return export(at, false, out);
    }

    /**
     * Writes the facts live at {@code at} to {@code out} as JSON lines, one object per fact in id
     * order with fixed fields (docs/loading.md). A sealed fact's content (body, triple, quotes) is
     * written only when {@code includeSealed}; the content of a forgotten fact (its key destroyed) is
     * never written, and a forgotten fact is not live, so it is not listed. Returns the number of lines.
     *
     * @throws NotFoundException when {@code at} is no commit of the store
     */
    public int export(CommitId at, boolean includeSealed, Appendable out) throws NotFoundException {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(out, "out");
        ObjectId commit = Commits.require(repo, at);
        store.head(); // learns of forgets first: their keys are destroyed before anything is read
        Map<FactId, ObjectId> live = LiveFacts.at(repo, commit);
        int n = 0;
        try (ObjectReader reader = repo.newReader()) {
            for (Map.Entry<FactId, ObjectId> e : live.entrySet()) {
                Fact f = cache.get(reader, e.getValue());
                if (f == null) {
                    throw new PalimpsestInternalException("fact " + e.getKey() + " at " + at.hex()
                            + " does not decode (run audit)");
                }
                out.append(ExportLine.of(f, includeSealed)).append('\n');
                n++;
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot write the export: " + e.getMessage(), e);
        }
        return n;
    }
}
