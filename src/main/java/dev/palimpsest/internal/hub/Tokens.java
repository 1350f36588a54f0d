package dev.palimpsest.internal.hub;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The hub's bearer tokens, kept in the key home (outside every repository) in the file
 * {@value #FILE}, created owner-only (0600) like the secret keys: one line per token with its id,
 * actor, mode, creation and expiry times and the SHA-256 of the secret, never the secret itself. A
 * token is {@code pal_<id>_<secret>}: 8 hex digits naming its line and 256 random bits (base64url),
 * shown once by {@link #add}. Changes take a file lock and replace the file atomically, so
 * concurrent {@code token add} runs lose nothing; {@link #authenticate} rereads the file when it
 * changed, so a revocation takes effect at the next request. A token file that group or others may
 * read is refused (rule {@code key-permissions}). Thread-safe.
 */
public final class Tokens {
    /** The file's name in the key home. */
    public static final String FILE = "hub-tokens";
    private static final String PREFIX = "pal_";
    private static final String HEADER = "# palimpsest hub tokens v1: id actor mode created expires sha256(secret)";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** One token as the file keeps it: no secret, only its hash. Immutable. */
    public record Token(String id, ActorName actor, boolean readOnly, Instant created, Optional<Instant> expires,
            String hash) {
        public Token {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(actor, "actor");
            Objects.requireNonNull(created, "created");
            Objects.requireNonNull(expires, "expires");
            Objects.requireNonNull(hash, "hash");
            if (!id.matches("[0-9a-f]{8}")) {
                throw new IllegalArgumentException("token id '" + id + "' is not 8 hex digits");
            }
        }

        /** True when the token has expired at {@code now}. */
        public boolean expiredAt(Instant now) {
            return expires.isPresent() && !now.isBefore(expires.get());
        }

        String line() {
            return id + " " + actor.value() + " " + (readOnly ? "read" : "write") + " " + created + " "
                    + expires.map(Instant::toString).orElse("-") + " " + hash;
        }
    }

    /** A token just made: its record, and the secret to hand out once (never stored). */
    public record Issued(Token token, String secret) {
        public Issued {
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(secret, "secret");
        }

        @Override
        public String toString() {
            return "Issued[" + token + ", secret=(hidden)]";
        }
    }

    /** One in-process lock per token file, shared by every instance. */
    private static final java.util.concurrent.ConcurrentHashMap<Path, java.util.concurrent.locks.ReentrantLock> LOCAL =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final Path file;
    private volatile Snapshot cache = new Snapshot(null, -1, List.of());

    private record Snapshot(FileTime modified, long size, List<Token> tokens) {}

    /** The tokens of the key home {@code home} (which may not exist yet). */
    public Tokens(Path home) {
        this.file = Objects.requireNonNull(home, "home").resolve(FILE);
    }

    /** The token file's path. */
    public Path file() {
        return file;
    }

    /**
     * Makes a token for {@code actor}; {@code readOnly}: it may read and fetch only; {@code expires}:
     * when it stops working.
     *
     * @throws RejectedException when {@code expires} is not after {@code now}, or the file is open to others
     */
    public Issued add(ActorName actor, boolean readOnly, Optional<Instant> expires, Instant now)
            throws RejectedException {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(expires, "expires");
        Objects.requireNonNull(now, "now");
        if (expires.isPresent() && !expires.get().isAfter(now)) {
            throw new RejectedException(Rule.INVALID_ARGUMENT, "--expires", expires.get() + " is not in the future");
        }
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        byte[] idBytes = new byte[4];
        return changed(tokens -> {
            String id;
            do {
                RANDOM.nextBytes(idBytes);
                id = HexFormat.of().formatHex(idBytes);
            } while (find(tokens, id).isPresent());
            String presented = PREFIX + id + "_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
            Token t = new Token(id, actor, readOnly, now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                    expires, sha256(presented));
            tokens.add(t);
            return new Issued(t, presented);
        });
    }

    /** Every token, oldest first (expired ones too). */
    public List<Token> list() throws RejectedException {
        return read().tokens();
    }

    /**
     * Forgets the token {@code id}: it stops working at the hub's next request.
     *
     * @throws NotFoundException when no token has that id
     */
    public Token revoke(String id) throws NotFoundException, RejectedException {
        Objects.requireNonNull(id, "id");
        try {
            return changed(tokens -> {
                Optional<Token> t = find(tokens, id);
                if (t.isEmpty()) {
                    throw new NotFoundRuntime("no token with id '" + id + "' (see: token list)");
                }
                tokens.remove(t.get());
                return t.get();
            });
        } catch (NotFoundRuntime e) {
            throw new NotFoundException(e.getMessage());
        }
    }

    /**
     * The token {@code presented} is, when it is well formed, known, and not expired at {@code now};
     * the secret is compared by its hash in constant time.
     */
    public Optional<Token> authenticate(String presented, Instant now) {
        if (presented == null || !presented.startsWith(PREFIX) || presented.length() != PREFIX.length() + 9 + 43
                || presented.charAt(PREFIX.length() + 8) != '_') {
            return Optional.empty();
        }
        String id = presented.substring(PREFIX.length(), PREFIX.length() + 8);
        List<Token> tokens;
        try {
            tokens = read().tokens();
        } catch (RejectedException e) {
            return Optional.empty();
        }
        Optional<Token> t = find(tokens, id);
        if (t.isEmpty() || t.get().expiredAt(now)) {
            return Optional.empty();
        }
        boolean same = MessageDigest.isEqual(t.get().hash().getBytes(StandardCharsets.US_ASCII),
                sha256(presented).getBytes(StandardCharsets.US_ASCII));
        return same ? t : Optional.empty();
    }

    private static Optional<Token> find(List<Token> tokens, String id) {
        return tokens.stream().filter(t -> t.id().equals(id)).findFirst();
    }

    private static final class NotFoundRuntime extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotFoundRuntime(String message) {
            super(message);
        }
    }

    private interface Change<T> {
        T apply(List<Token> tokens) throws RejectedException;
    }

    /**
     * Reads, changes and atomically rewrites the file under an in-process lock per file (a JVM may
     * hold only one OS lock on a file) and an exclusive OS lock on a lock file beside it.
     */
    private <T> T changed(Change<T> change) throws RejectedException {
        java.util.concurrent.locks.ReentrantLock local = LOCAL.computeIfAbsent(file.toAbsolutePath().normalize(),
                k -> new java.util.concurrent.locks.ReentrantLock());
        local.lock();
        try {
            return changedLocked(change);
        } finally {
            local.unlock();
        }
    }

    private <T> T changedLocked(Change<T> change) throws RejectedException {
        try {
            Path dir = file.getParent();
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Path lockFile = dir.resolve(FILE + ".lock");
            try (FileChannel ch = FileChannel.open(lockFile, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                    FileLock ignored = ch.lock()) {
                List<Token> tokens = new ArrayList<>(load());
                T result = change.apply(tokens);
                StringBuilder out = new StringBuilder(HEADER).append('\n');
                for (Token t : tokens) {
                    out.append(t.line()).append('\n');
                }
                Path tmp = Files.createTempFile(dir, "." + FILE + "-", ".tmp",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                try {
                    Files.writeString(tmp, out, StandardCharsets.UTF_8);
                    try (FileChannel f = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                        f.force(true);
                    }
                    try {
                        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    } catch (AtomicMoveNotSupportedException e) {
                        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                    }
                } finally {
                    Files.deleteIfExists(tmp);
                }
                cache = new Snapshot(null, -1, List.of());
                return result;
            }
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot write the token file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The tokens, reread only when the file's time or size changed. */
    private Snapshot read() throws RejectedException {
        try {
            FileTime modified = Files.getLastModifiedTime(file);
            long size = Files.size(file);
            Snapshot c = cache;
            if (modified.equals(c.modified()) && size == c.size()) {
                return c;
            }
            Snapshot fresh = new Snapshot(modified, size, List.copyOf(load()));
            cache = fresh;
            return fresh;
        } catch (NoSuchFileException e) {
            return new Snapshot(null, -1, List.of());
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read the token file " + file + ": " + e.getMessage(), e);
        }
    }

    private List<Token> load() throws RejectedException, IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        checkPrivate();
        List<Token> out = new ArrayList<>();
        int n = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.trim().split(" ");
            try {
                if (f.length != 6 || !(f[2].equals("read") || f[2].equals("write")) || !f[5].matches("[0-9a-f]{64}")) {
                    throw new IllegalArgumentException("expected: id actor read|write created expires sha256");
                }
                out.add(new Token(f[0], ActorName.of(f[1]), f[2].equals("read"), Instant.parse(f[3]),
                        f[4].equals("-") ? Optional.empty() : Optional.of(Instant.parse(f[4])), f[5]));
            } catch (RuntimeException e) {
                throw new PalimpsestInternalException("the token file " + file + " is malformed at line " + n + ": "
                        + e.getMessage(), e);
            }
        }
        return out;
    }

    private void checkPrivate() throws RejectedException, IOException {
        Set<PosixFilePermission> perms;
        try {
            perms = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException e) {
            return;
        }
        for (PosixFilePermission p : perms) {
            if (p.name().startsWith("GROUP") || p.name().startsWith("OTHERS")) {
                throw new RejectedException(Rule.KEY_PERMISSIONS, "token file " + file,
                        "is readable or writable by group or others (" + PosixFilePermissions.toString(perms)
                                + "); fix it with: chmod 600 " + file);
            }
        }
    }

    static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
