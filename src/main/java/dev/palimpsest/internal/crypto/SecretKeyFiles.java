package dev.palimpsest.internal.crypto;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.RejectedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.Date;
import org.bouncycastle.openpgp.PGPSecretKeyRing;

/**
 * Secret keys in the key home: {@code <home>/keys/<actor>.sec.asc}, armored, unprotected, created
 * owner-only (directories 0700, files 0600) before any byte is written. Never logged. As ssh does,
 * a key home or {@code keys/} folder that group or others may access, or a key file they may read
 * or write, is refused (rule {@code key-permissions}) naming the path and the {@code chmod} that
 * fixes it; on a file system without POSIX permissions nothing is checked.
 */
public final class SecretKeyFiles {
    private final Path home;

    /** The secret keys of the key home {@code home} (a directory, possibly not yet created). */
    public SecretKeyFiles(Path home) {
        this.home = home;
    }

    /** The key home. */
    public Path home() {
        return home;
    }

    public Path path(ActorName actor) {
        return home.resolve("keys").resolve(actor.value() + ".sec.asc");
    }

    public boolean exists(ActorName actor) {
        return Files.isRegularFile(path(actor));
    }

    /**
     * Refuses a key home, keys folder or key file of {@code actor} that group or others may access;
     * what does not exist yet passes (it is created owner-only). Call before {@link #load} or
     * {@link #create}.
     *
     * @throws RejectedException naming the path and the {@code chmod} that fixes it
     */
    public void checkPermissions(ActorName actor) throws RejectedException {
        for (Path dir : List.of(home, home.resolve("keys"))) {
            if (Files.isDirectory(dir)) {
                checkPrivate(dir, true);
            }
        }
        if (Files.isRegularFile(path(actor))) {
            checkPrivate(path(actor), false);
        }
    }

    /** Loads the actor's key, or returns null when the key home has none; see {@link #checkPermissions}. */
    public PGPSecretKeyRing load(ActorName actor) {
        Path p = path(actor);
        if (!Files.isRegularFile(p)) {
            return null;
        }
        try {
            return OpenPgpKeys.parseSecret(Files.readString(p, StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read secret key file " + p, e);
        }
    }

    /** Generates and saves a key for the actor; fails if one exists already; see {@link #checkPermissions}. */
    public PGPSecretKeyRing create(ActorName actor, String email) {
        PGPSecretKeyRing ring = OpenPgpKeys.generate(actor.value(), email, new Date());
        Path target = path(actor);
        try {
            Path dir = ensurePrivateDir(ensurePrivateDir(home).resolve("keys"));
            Path tmp = Files.createTempFile(dir, ".new-", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.writeString(tmp, OpenPgpKeys.armor(ring), StandardCharsets.US_ASCII);
                try {
                    Files.createLink(target, tmp);
                } catch (FileAlreadyExistsException e) {
                    throw new IllegalStateException("a secret key for actor '" + actor + "' already exists at " + target);
                } catch (UnsupportedOperationException e) {
                    moveNoReplace(tmp, target);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
            return ring;
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot write secret key file " + target, e);
        }
    }

    private static void moveNoReplace(Path from, Path to) throws IOException {
        if (Files.exists(to)) {
            throw new IllegalStateException("a secret key already exists at " + to);
        }
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to);
        }
    }

    private static void checkPrivate(Path p, boolean dir) throws RejectedException {
        Set<PosixFilePermission> perms;
        try {
            perms = Files.getPosixFilePermissions(p);
        } catch (UnsupportedOperationException e) {
            return;
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read the permissions of " + p, e);
        }
        Set<PosixFilePermission> open = EnumSet.noneOf(PosixFilePermission.class);
        for (PosixFilePermission x : perms) {
            if (x.name().startsWith("GROUP") || x.name().startsWith("OTHERS")) {
                open.add(x);
            }
        }
        if (!open.isEmpty()) {
            String mode = PosixFilePermissions.toString(perms);
            throw new RejectedException(Rule.KEY_PERMISSIONS, (dir ? "key folder " : "secret key ") + p,
                    (dir ? "is accessible by group or others (" : "is readable or writable by group or others (")
                            + mode + "); fix it with: chmod " + (dir ? "700 " : "600 ") + p);
        }
    }

    private static Path ensurePrivateDir(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir,
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
        return dir;
    }
}
