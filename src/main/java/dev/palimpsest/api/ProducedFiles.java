package dev.palimpsest.api;

import dev.palimpsest.internal.layout.FileMeta;
import dev.palimpsest.internal.files.FileRecords;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.StoredFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Produced files: bytes an agent produced, stored as content-addressed git blobs under
 * {@code files/<aa>/<bb>/<sha256>} (identical bytes once), each put a new version of the name's
 * record (a fact of kind {@code file}, id {@code file-} + 16 hex of SHA-256(name)) carrying the
 * name (metadata only), media type, SHA-256, size, optional run, and pinned refs: {@code source}
 * (mandatory), {@code parent} (other files) and {@code about} (claims). Content is streamed, never
 * held in memory. Thread-safe.
 */
public final class ProducedFiles {
    private final Store store;
    private final FileRecords records;

    ProducedFiles(Store store, GitRepo repo, PredicateIndex index, Writer writer, boolean fsync, Path keyHome) {
        this.store = store;
        this.records = new FileRecords(repo, index, writer, fsync, keyHome);
    }

    /**
     * Stores the bytes of {@code file} under {@code name} as one signed commit by {@code actor}.
     * {@code source} must exist at main's tip (rule {@code file-source-required} when null), as must
     * every parent (a produced file: {@code file-parent-not-file}) and claim
     * ({@code ref-target-missing}); a file that resolves into the key home or holds OpenPGP
     * secret-key material is refused ({@code secret-material}); nothing is written when the put is
     * rejected. A put that changes nothing (same bytes, run and provenance) returns the current
     * version without a commit.
     *
     * @deprecated a null source or run had a meaning (a null source: rule {@code file-source-required});
     *     use {@link #put(ActorName, Put)}: {@code put(actor, Put.of(name, file, source).withRun(run)
     *     .withParents(parents).withClaims(claims))}, leaving out {@code withRun} for no run.
     */
    @Deprecated(since = "0.2", forRemoval = true)
    public StoredFile put(ActorName actor, String name, Path file, FactId source, String run, List<FactId> parents,
            List<FactId> claims) throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(file, "file");
        return records.put(actor, store.signer(actor),
                new FileRecords.Put(name, file, source, run, parents, claims));
    }

    /**
     * Stores the bytes of {@code request}'s file under its name as one signed commit by {@code actor}.
     * Its source must exist at main's tip, as must every parent (a produced file: {@code
     * file-parent-not-file}) and claim ({@code ref-target-missing}); a file that resolves into the key
     * home or holds OpenPGP secret-key material is refused ({@code secret-material}); nothing is
     * written when the put is rejected. A put that changes nothing (same bytes, run and provenance)
     * returns the current version without a commit.
     */
    public StoredFile put(ActorName actor, Put request) throws RejectedException, ConflictException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(request, "request");
        return records.put(actor, store.signer(actor), new FileRecords.Put(request.name, request.file,
                request.source, request.run, request.parents, request.claims));
    }

    /**
     * What {@link #put(ActorName, Put)} stores: a name, the file whose bytes are stored, the source it
     * was produced from, and optionally the agent run, parents (other produced files) and claims it is
     * about (none unless set). Immutable and thread-safe; each {@code with…} answers a changed copy.
     */
    public static final class Put {
        private final String name;
        private final Path file;
        private final FactId source;
        private final String run;
        private final List<FactId> parents;
        private final List<FactId> claims;

        private Put(String name, Path file, FactId source, String run, List<FactId> parents, List<FactId> claims) {
            this.name = name;
            this.file = file;
            this.source = source;
            this.run = run;
            this.parents = List.copyOf(parents);
            this.claims = List.copyOf(claims);
        }

        /** The bytes of {@code file} under {@code name}, produced from {@code source}, without run, parents or claims. */
        public static Put of(String name, Path file, FactId source) {
            return new Put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(file, "file"),
                    Objects.requireNonNull(source, "source"), null, List.of(), List.of());
        }

        /** The same put made in agent run {@code run}. */
        public Put withRun(String run) {
            return new Put(name, file, source, Objects.requireNonNull(run, "run"), parents, claims);
        }

        /** The same put deriving from the produced files {@code parents} (instead of those set before). */
        public Put withParents(List<FactId> parents) {
            return new Put(name, file, source, run, Objects.requireNonNull(parents, "parents"), claims);
        }

        /** The same put about the claims {@code claims} (instead of those set before). */
        public Put withClaims(List<FactId> claims) {
            return new Put(name, file, source, run, parents, Objects.requireNonNull(claims, "claims"));
        }

        public String name() {
            return name;
        }

        public Path file() {
            return file;
        }

        public FactId source() {
            return source;
        }

        /** The agent run; empty when none is set. */
        public java.util.Optional<String> run() {
            return java.util.Optional.ofNullable(run);
        }

        public List<FactId> parents() {
            return parents;
        }

        public List<FactId> claims() {
            return claims;
        }
    }

    /** The record id a name's versions are kept under. */
    public static FactId idOf(String name) {
        return FileMeta.idOf(Objects.requireNonNull(name, "name"));
    }

    /**
     * The version of record {@code id} navigable at the tip of main ({@code live} false when retracted).
     *
     * @throws NotFoundException when no file record {@code id} was written on main
     */
    public StoredFile get(FactId id) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        return get(id, store.head());
    }

    /**
     * The version of record {@code id} navigable at {@code at} ({@code live} false when retracted).
     *
     * @throws NotFoundException when {@code at} is no commit of the store, or no file record
     *     {@code id} was written in its ancestry
     */
    public StoredFile get(FactId id, CommitId at) throws NotFoundException {
        Objects.requireNonNull(id, "id");
        StoredFile f = records.get(id, store.commit(Objects.requireNonNull(at, "at")));
        if (f == null) {
            throw new NotFoundException("no produced file " + id + " at " + at.hex());
        }
        return f;
    }

    /** Copies the content of {@code f} to {@code out}, streaming. */
    public void copy(StoredFile f, OutputStream out) throws IOException {
        records.copy(Objects.requireNonNull(f, "f"), Objects.requireNonNull(out, "out"));
    }

    /**
     * Every version of the name's record on main, oldest first.
     *
     * @throws NotFoundException when no file was ever put under that name
     */
    public List<StoredFile> versions(String name) throws NotFoundException {
        List<StoredFile> out = records.versions(Objects.requireNonNull(name, "name"));
        if (out.isEmpty()) {
            throw new NotFoundException("no produced file named " + name);
        }
        return out;
    }

    /** The file records live at the tip of main, sorted by name. */
    public List<StoredFile> list() {
        return store.atTip(this::list);
    }

    /**
     * The file records live at {@code at}, sorted by name.
     *
     * @throws NotFoundException when {@code at} is no commit of the store
     */
    public List<StoredFile> list(CommitId at) throws NotFoundException {
        return records.list(store.commit(Objects.requireNonNull(at, "at")));
    }
}
