package dev.palimpsest.shared;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.SearchQuery;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two store instances on one repository behave as two processes do (each has its own indexes,
 * caches and view of main): what one writes or forgets, the other's gate, answers and saved
 * indexes take into account.
 */
class SharedStoreTest {
    static final String SECRET = "Quentin Marsh";
    static final String SECRET_OBJECT = "lives at 7 Lantern Row with Quentin Marsh";

    @TempDir
    Path tmp;

    private Path dir;
    private KeyHome home;
    private final FactId src = FactId.of("src");
    private final FactId old = FactId.of("old");

    @BeforeEach
    void writeASourceAndAClaim() throws Exception {
        dir = tmp.resolve("store.git");
        home = new KeyHome(tmp.resolve("home"));
        try (Store s = TestStores.init(tmp)) {
            var t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.SOURCE, "The interview notes say the tenant moved in March.").id(src));
            t.commit();
            s.claims().claim(ALICE, claim(old, "tenant", "moved in", "March"));
        }
    }

    private ClaimSpec claim(FactId id, String subject, String predicate, String object) {
        return new ClaimSpec(id, subject, predicate, object, List.of(RefSpec.of(src, dev.palimpsest.model.RefRole.SOURCE)), null, null, null);
    }

    private Store open() throws Exception {
        return Store.open(dir, home, StoreOptions.defaults().withFsync(false));
    }

    @Test
    void aSupersessionLandedByAnotherInstanceIsSeenByTheGate() throws Exception {
        try (Store a = open(); Store b = open()) {
            assertThat(b.claims().at(b.head()).current("tenant")).hasSize(1); // b's indexes are loaded
            a.claims().supersede(ALICE, old, claim(FactId.of("fix-a"), "tenant", "moved in", "April"));
            RejectedException e = catchThrowableOfType(
                    () -> b.claims().supersede(ALICE, old, claim(FactId.of("fix-b"), "tenant", "moved in", "May")),
                    RejectedException.class);
            assertThat(e).isNotNull();
            assertThat(e.violations()).extracting(v -> v.rule()).containsExactly(Rule.ALREADY_SUPERSEDED);
            assertThat(e.violations().get(0).message()).contains("fix-a");
            assertThat(b.claims().at(b.head()).current("tenant")).extracting(c -> c.object()).containsExactly("April");
        }
        assertThat(audit()).isEmpty();
    }

    @Test
    void aForgetByAnotherInstanceIsNeverAnsweredFromTheOtherInstancesCaches() throws Exception {
        FactId secret = FactId.of("secret");
        CommitId written;
        try (Store s = open()) {
            s.claims().claim(ALICE, new ClaimSpec(secret, "tenant", "note", SECRET_OBJECT, List.of(RefSpec.of(src, dev.palimpsest.model.RefRole.SOURCE)),
                    null, null, null, true, null));
            written = s.head();
        }
        try (Store a = open(); Store b = open()) {
            // b reads everything it caches: the fact, the claims index, the search index
            assertThat(b.read(secret, written).toString()).contains(SECRET);
            assertThat(b.claims().at(written).current("tenant", "note")).extracting(c -> c.object())
                    .containsExactly(SECRET_OBJECT);
            assertThat(b.recall().search(SearchQuery.builder("Lantern Row").at(written).build())).isNotEmpty();

            a.erasure().forget(ALICE, List.of(secret), "erasure request", false);

            assertThat(catchThrowableOfType(() -> b.read(secret, written), NotFoundException.class))
                    .hasMessageContaining("forgotten");
            assertThat(b.claims().at(written).current("tenant", "note").toString()).doesNotContain(SECRET);
            assertThat(b.claims().at(b.head()).deadEnds("tenant", 50).toString()).doesNotContain(SECRET);
            assertThat(b.recall().search(SearchQuery.builder("Lantern Row").at(written).build())).isEmpty();
            // b writes (its listeners save their indexes) and closes (its search index is saved)
            b.claims().claim(ALICE, claim(FactId.of("later"), "tenant", "rent", "900"));
            assertThat(b.erasure().unlearnCheck(secret).readable()).isEmpty();
        }
        assertThat(filesHolding(SECRET)).isEmpty();
        assertThat(audit()).isEmpty();
    }

    @Test
    void aRejectedSealedWriteLeavesNoKeyBehind() throws Exception {
        FactId doomed = FactId.of("doomed");
        try (Store s = open()) {
            RejectedException e = catchThrowableOfType(() -> {
                var t = s.begin(ALICE);
                t.assertFact(FactSpec.of(Kind.of("note"), "a sensitive note citing nothing real").id(doomed)
                        .asSensitive().refs(RefSpec.cites(FactId.of("no-such-fact"))));
                t.commit();
            }, RejectedException.class);
            assertThat(e).isNotNull();
            assertThat(Files.exists(vaultKey(doomed))).as("the rejected write's key").isFalse();
        }
    }

    @Test
    void aTombstoneThatReachedAReplicaWhileNoProcessRanDestroysItsKeyOnOpen() throws Exception {
        FactId secret = FactId.of("secret");
        try (Store s = open()) {
            var t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.of("note"), SECRET_OBJECT).id(secret).asSensitive());
            t.commit();
        }
        Path key = vaultKey(secret);
        byte[] kept = Files.readAllBytes(key);
        Path seen = dir.resolve("palimpsest-vault").resolve("tombstones-seen");
        String before = Files.exists(seen) ? Files.readString(seen) : null;
        try (Store s = open()) {
            s.erasure().forget(ALICE, List.of(secret), "erasure request", false);
        }
        // as a replica that held the key when a push brought the tombstone: key back, record of the old folder
        Files.write(key, kept);
        if (before == null) {
            Files.deleteIfExists(seen);
        } else {
            Files.writeString(seen, before);
        }
        assertThat(audit()).contains("key-not-destroyed");
        try (Store s = open()) {
            assertThat(Files.exists(key)).isFalse();
        }
        assertThat(audit()).isEmpty();
    }

    @Test
    void unlearnCheckIsNotCleanWhileARunningProcessHoldsASearchIndexSavedBeforeTheForget() throws Exception {
        FactId secret = FactId.of("secret");
        Path search = dir.resolve("palimpsest-index").resolve("search-v1");
        Path saved = tmp.resolve("search-copy");
        try (Store s = open()) {
            var t = s.begin(ALICE);
            t.assertFact(FactSpec.of(Kind.of("note"), SECRET_OBJECT).id(secret).asSensitive());
            t.commit();
            assertThat(s.recall().search(SearchQuery.builder("Lantern Row").build())).isNotEmpty();
        }
        copyTree(search, saved);
        try (Store s = open()) {
            s.erasure().forget(ALICE, List.of(secret), "erasure request", false);
        }
        // what a process killed before it saw the forget leaves: its index, saved before the tombstone
        dev.palimpsest.internal.forget.Scrub.searchIndex(dir, new ArrayList<>());
        copyTree(saved, search);
        assertThat(filesHolding(SECRET)).isNotEmpty();
        try (var d = org.apache.lucene.store.FSDirectory.open(search);
                var held = d.obtainLock(org.apache.lucene.index.IndexWriter.WRITE_LOCK_NAME)) {
            try (Store s = open()) {
                var r = s.erasure().unlearnCheck(secret);
                assertThat(r.caches()).containsExactly("palimpsest-index/search-v1");
                assertThat(r.clean()).isFalse();
            }
        }
        try (Store s = open()) {
            var r = s.erasure().unlearnCheck(secret);
            assertThat(r.caches()).isEmpty();
            assertThat(r.clean()).isTrue();
        }
        assertThat(filesHolding(SECRET)).isEmpty();
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else if (!p.getFileName().toString().equals("write.lock")) {
                    Files.copy(p, q, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private Path vaultKey(FactId id) {
        Path[] found = {null};
        try (Stream<Path> all = Files.walk(dir.resolve("palimpsest-vault"))) {
            all.filter(p -> p.getFileName().toString().equals(id.value() + ".key")).forEach(p -> found[0] = p);
        } catch (java.io.IOException e) {
            return dir.resolve("palimpsest-vault").resolve("none");
        }
        return found[0] == null ? dir.resolve("palimpsest-vault").resolve("none") : found[0];
    }

    /** Files under the store, outside git's objects (where it is ciphertext), whose bytes hold {@code text}. */
    private List<Path> filesHolding(String text) throws Exception {
        return dev.palimpsest.testing.Bytes.filesHolding(dir, text, dir.resolve("objects"));
    }

    private List<String> audit() throws Exception {
        try (Auditor a = Auditor.open(dir)) {
            return a.audit(AuditProgress.none()).violations().stream().map(v -> v.rule().id()).toList();
        }
    }
}
