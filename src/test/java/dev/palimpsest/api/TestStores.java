package dev.palimpsest.api;

import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.ActorName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** Creates throwaway stores for tests and fingerprints a repository's durable state. */
public final class TestStores {
    public static final ActorName ALICE = ActorName.of("alice");

    private TestStores() {}

    public static Store init(Path dir) throws PalimpsestException {
        return Store.initializer(dir.resolve("store.git"))
                .home(new KeyHome(dir.resolve("home"))).actor(ALICE).options(StoreOptions.defaults().withFsync(false)).create();
    }

    /** main's tip plus every file under objects/ and refs/: equal before and after means nothing was written. */
    /**
     * A fresh store like {@link #init} without the semantic channel: for tests of the words', entities',
     * spelling and graph channels' own mechanics, whose exact hits a model's notion of meaning would blur.
     */
    public static Store initLexical(Path dir) throws PalimpsestException {
        return Store.initializer(dir.resolve("store.git"))
                .home(new KeyHome(dir.resolve("home"))).actor(ALICE)
                .options(StoreOptions.defaults().withFsync(false).withoutEmbedder()).create();
    }

    public static Set<String> durableState(Path gitDir) {
        Set<String> out = new TreeSet<>();
        for (String sub : new String[] {"objects", "refs"}) {
            try (Stream<Path> s = Files.walk(gitDir.resolve(sub))) {
                s.filter(Files::isRegularFile).forEach(p -> out.add(gitDir.relativize(p).toString()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        try {
            out.add("main=" + Files.readString(gitDir.resolve("refs/heads/main")).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Adds an internal operation (a reground with a reason, a configure) to {@code t}, as cleanup and entailment do. */
    public static Transaction add(Transaction t, dev.palimpsest.internal.write.Operation op) {
        t.add(op);
        return t;
    }

    /** The full message of commit {@code c} (subject and trailers). */
    public static String message(Path gitDir, dev.palimpsest.model.CommitId c) {
        try (org.eclipse.jgit.lib.Repository r = new org.eclipse.jgit.storage.file.FileRepositoryBuilder()
                .setGitDir(gitDir.toFile()).build(); org.eclipse.jgit.revwalk.RevWalk w = new org.eclipse.jgit.revwalk.RevWalk(r)) {
            return w.parseCommit(org.eclipse.jgit.lib.ObjectId.fromString(c.hex())).getFullMessage();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The raw bytes of blob {@code b}, as UTF-8 text. */
    public static String blob(Path gitDir, dev.palimpsest.model.BlobId b) {
        try (org.eclipse.jgit.lib.Repository r = new org.eclipse.jgit.storage.file.FileRepositoryBuilder()
                .setGitDir(gitDir.toFile()).build()) {
            return new String(r.open(org.eclipse.jgit.lib.ObjectId.fromString(b.hex())).getBytes(),
                    java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The cleanup arithmetic of {@code s} at commit {@code at} (as plans and merge cascades use it). */
    public static dev.palimpsest.internal.receipts.Cleanup cleanup(Store s, dev.palimpsest.model.CommitId at)
            throws dev.palimpsest.model.NotFoundException {
        return s.receipts().cleanup(at);
    }
}
