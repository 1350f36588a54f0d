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
}
