package dev.palimpsest.internal.files;

import dev.palimpsest.internal.crypto.CommitSigner;
import dev.palimpsest.internal.crypto.SecretMaterial;
import dev.palimpsest.internal.derive.Derivation;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.index.FactState;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.layout.FileMeta;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.write.Operation;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.FormatException;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.StoredFile;
import dev.palimpsest.model.Violation;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.PathFilter;

/**
 * Produced files: each put streams the bytes into a content-addressed blob under {@code files/}
 * and writes a new version of the name's record (a fact of kind {@code file} whose body is its
 * {@link FileMeta}, with refs {@code source}, {@code parent} and {@code about}), in one signed
 * commit through the gate. A file in the key home, or one holding OpenPGP secret-key material
 * ({@link SecretMaterial}, checked as it streams in), is refused before its blob is kept.
 * Thread-safe.
 */
public final class FileRecords {
    public static final Kind KIND = Kind.of(FileMeta.KIND);
    public static final RefRole PARENT = RefRole.of("parent");
    public static final RefRole ABOUT = RefRole.of("about");

    private final GitRepo repo;
    private final PredicateIndex index;
    private final Writer writer;
    private final boolean fsync;
    private final Derivation derivation;
    private final Path keyHome;

    /** The produced files of {@code repo}; {@code keyHome} is the folder no file is taken from. */
    public FileRecords(GitRepo repo, PredicateIndex index, Writer writer, boolean fsync, Path keyHome) {
        this.keyHome = keyHome;
        this.repo = repo;
        this.index = index;
        this.writer = writer;
        this.fsync = fsync;
        this.derivation = new Derivation(repo, index);
    }

    /** What a put asks for. */
    public record Put(String name, Path file, FactId source, String run, List<FactId> parents, List<FactId> claims) {
        public Put {
            parents = List.copyOf(parents);
            claims = List.copyOf(claims);
        }
    }

    /**
     * Checks the request against main's tip (name, input file, provenance), streams the content in,
     * and lands the record's new version; nothing is written when the request is rejected.
     */
    public StoredFile put(ActorName actor, CommitSigner signer, Put p) throws RejectedException, ConflictException {
        List<Violation> vs = new ArrayList<>();
        String problem = FileMeta.nameProblem(p.name());
        if (problem != null) {
            vs.add(new Violation(Rule.INVALID_ARGUMENT, "NAME", problem));
        }
        long size = -1;
        String secret = SecretMaterial.inKeyHome(p.file(), keyHome);
        if (secret != null) {
            vs.add(new Violation(Rule.SECRET_MATERIAL, "file " + p.file(), secret + "; it is not stored"));
        } else if (!Files.isRegularFile(p.file()) || !Files.isReadable(p.file())) {
            vs.add(new Violation(Rule.FILE_UNREADABLE, "file " + p.file(), "is missing, a folder or unreadable"));
        } else {
            try {
                size = Files.size(p.file());
            } catch (IOException e) {
                vs.add(new Violation(Rule.FILE_UNREADABLE, "file " + p.file(), e.getMessage()));
            }
            if (size > Limits.MAX_CONTENT) {
                vs.add(new Violation(Rule.TOO_LARGE, "file " + p.file(), Limits.describe(size)
                        + ", over the limit of " + Limits.describe(Limits.MAX_CONTENT) + " per produced file"));
            }
        }
        if (p.run() != null && (p.run().isEmpty() || FileMeta.nameProblem(p.run()) != null)) {
            vs.add(new Violation(Rule.INVALID_ARGUMENT, "--run", "a run must be non-empty text of at most 1,024 bytes"));
        }
        ObjectId head = repo.head();
        checkProvenance(p, head, vs);
        if (!vs.isEmpty()) {
            throw new RejectedException(vs);
        }
        ContentWriter.Stored stored;
        try (InputStream in = SecretMaterial.scanning(Files.newInputStream(p.file()))) {
            stored = ContentWriter.write(repo.gitDir(), repo.gitDir().resolve("palimpsest-tmp"), in, size, fsync,
                    this::has);
        } catch (SecretMaterial.Found e) {
            throw new RejectedException(Rule.SECRET_MATERIAL, "file " + p.file(), e.getMessage() + "; it is not stored");
        } catch (IOException e) {
            throw new RejectedException(Rule.FILE_UNREADABLE, "file " + p.file(), "cannot be read: " + e.getMessage());
        }
        FileMeta meta = new FileMeta(p.name(), FileMeta.mediaTypeOf(p.name()), stored.sha256(), stored.size(), p.run());
        FactId id = FileMeta.idOf(p.name());
        List<RefSpec> refs = new ArrayList<>();
        refs.add(RefSpec.of(p.source(), RefRole.SOURCE));
        p.parents().forEach(x -> refs.add(RefSpec.of(x, PARENT)));
        p.claims().forEach(x -> refs.add(RefSpec.of(x, ABOUT)));
        FactState now = index.state(id, head);
        Operation op;
        if (now != null && now.live()) {
            Set<String> carried = new HashSet<>();
            now.refs().forEach(r -> carried.add(r.target() + " " + r.role()));
            List<RefSpec> added = refs.stream().filter(r -> !carried.contains(r.target().value() + " " + r.role().value()))
                    .toList();
            StoredFile current = version(id, now);
            if (current != null && current.sha256().equals(meta.sha256()) && current.name().equals(meta.name())
                    && java.util.Objects.equals(current.run(), meta.run()) && added.isEmpty()) {
                return current;
            }
            op = new Operation.Revise(id, meta.encode(), null, added);
        } else {
            op = new Operation.Assert(id, KIND, meta.encode(), null, refs);
        }
        CommitResult r = writer.write(actor, signer, List.of(op), Map.of(meta.contentPath(), stored.blob()));
        return new StoredFile(id, meta.name(), meta.mediaType(), meta.sha256(), meta.size(), meta.contentPath(),
                BlobId.of(stored.blob().name()), r.id(), meta.run(), actor.value(), true);
    }

    private boolean has(ObjectId id) {
        try {
            return repo.repository().getObjectDatabase().has(id);
        } catch (IOException e) {
            return false;
        }
    }

    /** The provenance rules, at main's tip: a source; sources, parents and claims exist; parents are files. */
    private void checkProvenance(Put p, ObjectId head, List<Violation> vs) {
        dev.palimpsest.internal.rules.FileRules.source(p.source() == null ? List.of() : List.of(RefRole.SOURCE),
                (rule, msg) -> vs.add(new Violation(rule, "new fact", msg)));
        List<FactId> all = new ArrayList<>();
        if (p.source() != null) {
            all.add(p.source());
        }
        all.addAll(p.parents());
        all.addAll(p.claims());
        for (FactId t : all) {
            FactState st = head == null ? null : index.existing(t, head);
            if (st == null) {
                vs.add(new Violation(Rule.REF_TARGET_MISSING, "ref new fact -> " + t, "does not exist at "
                        + (head == null ? "an empty store" : head.name())));
            }
        }
        FactId self = FileMeta.nameProblem(p.name()) == null ? FileMeta.idOf(p.name()) : null;
        if (self != null && (p.parents().contains(self) || p.claims().contains(self) || self.equals(p.source()))) {
            vs.add(new Violation(Rule.SELF_REFERENCE, "ref " + self + " -> " + self, "a file record cannot cite itself"));
        }
        for (FactId parent : p.parents()) {
            FactState st = head == null ? null : index.existing(parent, head);
            if (st != null && !FileMeta.KIND.equals(st.kind())) {
                vs.add(new Violation(Rule.FILE_PARENT_NOT_FILE, "ref new fact -> " + parent, "is a fact of kind "
                        + st.kind() + ", not a produced file"));
            }
        }
    }

    /** The version of a record navigable at {@code at}, or null when the record was never written there. */
    public StoredFile get(FactId id, ObjectId at) {
        FactState st = index.existing(id, at);
        if (st == null || !FileMeta.KIND.equals(st.kind())) {
            return null;
        }
        StoredFile f = version(id, st);
        if (f == null) {
            return null;
        }
        return withLive(f, st.live() && index.state(id, at).versionCommit().equals(st.versionCommit()));
    }

    private static StoredFile withLive(StoredFile f, boolean live) {
        return new StoredFile(f.id(), f.name(), f.mediaType(), f.sha256(), f.size(), f.path(), f.content(), f.commit(),
                f.run(), f.actor(), live);
    }

    /** Every version of the name's record on main's first-parent ancestry, oldest first. */
    public List<StoredFile> versions(String name) {
        FactId id = FileMeta.idOf(name);
        ObjectId head = repo.head();
        List<StoredFile> out = new ArrayList<>();
        if (head == null) {
            return out;
        }
        FactState now = index.state(id, head);
        Set<ObjectId> seen = new HashSet<>();
        for (FactState e : index.eventsAt(id, head)) {
            if (e.live() && seen.add(e.versionCommit())) {
                StoredFile f = version(id, e);
                if (f != null) {
                    out.add(withLive(f, now != null && now.live() && now.versionCommit().equals(e.versionCommit())));
                }
            }
        }
        return out;
    }

    /** The records live at {@code at}, by name. */
    public List<StoredFile> list(ObjectId at) {
        List<StoredFile> out = new ArrayList<>();
        try (Snapshot s = Snapshot.of(repo, at); TreeWalk tw = new TreeWalk(s.reader())) {
            tw.addTree(s.tree());
            tw.setRecursive(true);
            tw.setFilter(PathFilter.create(StorePaths.FACTS));
            while (tw.next()) {
                String path = tw.getPathString();
                String file = path.substring(path.lastIndexOf('/') + 1);
                if (!file.startsWith(FileMeta.ID_PREFIX)) {
                    continue;
                }
                FactId id = StorePaths.idFromPath(path);
                FactState st = id == null ? null : index.state(id, at);
                if (st != null && st.live() && FileMeta.KIND.equals(st.kind())) {
                    StoredFile f = version(id, st);
                    if (f != null) {
                        out.add(withLive(f, true));
                    }
                }
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot list files at " + at.name(), e);
        }
        out.sort(java.util.Comparator.comparing(StoredFile::name).thenComparing(f -> f.id().value()));
        return out;
    }

    /** Copies the content of {@code f} to {@code out}, streaming. */
    public void copy(StoredFile f, OutputStream out) throws IOException {
        try (ObjectReader reader = repo.newReader()) {
            ObjectLoader l = reader.open(ObjectId.fromString(f.content().hex()), Constants.OBJ_BLOB);
            l.copyTo(out);
        }
    }

    /** Decodes one version's metadata; null when the version's file is not a valid record. */
    private StoredFile version(FactId id, FactState st) {
        try (ObjectReader reader = repo.newReader()) {
            byte[] bytes = reader.open(st.blob(), Constants.OBJ_BLOB).getCachedBytes(Limits.MAX_FILE);
            Fact fact = FactCodec.decodeFact(bytes, id.value());
            FileMeta m = FileMeta.decode(fact.body());
            if (m == null) {
                return null;
            }
            ObjectId content;
            try (Snapshot s = Snapshot.of(repo, st.versionCommit())) {
                content = s.blobAt(m.contentPath());
            }
            if (content == null) {
                return null;
            }
            String actor = derivation.commitInfo(st.versionCommit())[0];
            return new StoredFile(id, m.name(), m.mediaType(), m.sha256(), m.size(), m.contentPath(),
                    BlobId.of(content.name()), CommitId.of(st.versionCommit().name()), m.run(), actor, st.live());
        } catch (IOException | FormatException e) {
            return null;
        }
    }
}
