package dev.palimpsest.api;

import dev.palimpsest.model.Rule;
import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.Violation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyPermissionsTest {
    @TempDir
    Path dir;

    @Test
    void keysTheStoreCreatesAreOwnerOnlyInOwnerOnlyFolders() throws Exception {
        TestStores.init(dir).close();
        KeyHome home = new KeyHome(dir.resolve("home"));
        assertThat(mode(home.secretKeyFile(ALICE))).isEqualTo("rw-------");
        assertThat(mode(home.secretKeyFile(ALICE).getParent())).isEqualTo("rwx------");
        assertThat(mode(home.dir())).isEqualTo("rwx------");
    }

    @Test
    void aSecretKeyReadableByOthersIsRefusedNamingTheFileAndTheFix() throws Exception {
        try (Store s = TestStores.init(dir)) {
            Path key = new KeyHome(dir.resolve("home")).secretKeyFile(ALICE);
            Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
            assertThatThrownBy(() -> s.begin(ALICE)).isInstanceOfSatisfying(RejectedException.class, e -> {
                Violation v = e.violations().get(0);
                assertThat(v.rule()).isEqualTo(Rule.KEY_PERMISSIONS);
                assertThat(v.message()).contains("chmod 600 " + key);
            });
            Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
            assertThat(s.begin(ALICE)).isNotNull();
        }
    }

    @Test
    void aSecretKeyWritableByGroupIsRefused() throws Exception {
        try (Store s = TestStores.init(dir)) {
            Path key = new KeyHome(dir.resolve("home")).secretKeyFile(ALICE);
            Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw--w----"));
            assertThatThrownBy(() -> s.begin(ALICE)).isInstanceOf(RejectedException.class)
                    .hasMessageContaining("key-permissions");
        }
    }

    @Test
    void aKeyHomeOrKeysFolderOpenToOthersIsRefusedNamingTheFix() throws Exception {
        try (Store s = TestStores.init(dir)) {
            KeyHome home = new KeyHome(dir.resolve("home"));
            Files.setPosixFilePermissions(home.dir(), PosixFilePermissions.fromString("rwxr-xr-x"));
            assertThatThrownBy(() -> s.begin(ALICE)).isInstanceOf(RejectedException.class)
                    .hasMessageContaining("chmod 700 " + home.dir());
            Files.setPosixFilePermissions(home.dir(), PosixFilePermissions.fromString("rwx------"));
            Path keys = home.secretKeyFile(ALICE).getParent();
            Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rwx--x---"));
            assertThatThrownBy(() -> s.begin(ALICE)).isInstanceOf(RejectedException.class)
                    .hasMessageContaining("chmod 700 " + keys);
        }
    }

    @Test
    void initAndKeyGenerationRefuseAKeyHomeOpenToOthersAndWriteNothing() throws Exception {
        Path homeDir = Files.createDirectory(dir.resolve("shared-home"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        KeyHome home = new KeyHome(homeDir);
        Path store = dir.resolve("store.git");
        assertThatThrownBy(() -> Store.initializer(store).home(home).actor(ALICE).options(StoreOptions.defaults().withFsync(false)).create())
                .isInstanceOf(RejectedException.class).hasMessageContaining("chmod 700 " + homeDir);
        assertThat(store).doesNotExist();
        assertThat(home.hasKey(ALICE)).isFalse();
        assertThatThrownBy(() -> home.generateKey(ActorName.of("bob")))
                .isInstanceOf(RejectedException.class).hasMessageContaining("key-permissions");
        assertThat(mode(homeDir)).isEqualTo("rwxr-xr-x");
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
