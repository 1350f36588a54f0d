package dev.palimpsest.api;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InitTest {
    @TempDir
    Path dir;

    @Test
    void initAcceptsAnEmptyBareRepositoryMadeByGitInitBare() throws Exception {
        Path repo = dir.resolve("bare.git");
        git("init", "-q", "--bare", "--initial-branch=master", repo.toString());
        try (Store s = Store.initializer(repo).home(home()).actor(ALICE).options(options()).create()) {
            assertThat(s.log(0)).hasSize(1);
        }
        assertThat(Files.readString(repo.resolve("HEAD")).trim()).isEqualTo("ref: refs/heads/main");
        assertThat(git("--git-dir=" + repo, "fsck", "--strict")).isZero();
        try (Store s = Store.open(repo, home(), options())) {
            assertThat(s.keys(s.head())).hasSize(1);
        }
    }

    @Test
    void initRefusesABareRepositoryThatHasAnyRefOrAFolderThatIsNotEmpty() throws Exception {
        Path repo = dir.resolve("used.git");
        Store.initializer(repo).home(home()).actor(ALICE).options(options()).create().close();
        assertThatThrownBy(() -> Store.initializer(repo).home(home()).actor(ALICE).options(options()).create())
                .isInstanceOf(RejectedException.class).hasMessageContaining("store-exists");
        Path folder = Files.createDirectory(dir.resolve("folder"));
        Files.writeString(folder.resolve("notes.txt"), "mine");
        assertThatThrownBy(() -> Store.initializer(folder).home(home()).actor(ALICE).options(options()).create())
                .isInstanceOf(RejectedException.class).hasMessageContaining("store-exists");
        Path tagged = dir.resolve("tagged.git");
        git("init", "-q", "--bare", tagged.toString());
        Files.createDirectories(tagged.resolve("refs/tags"));
        Files.writeString(tagged.resolve("refs/tags/v1"), "0123456789012345678901234567890123456789\n");
        assertThatThrownBy(() -> Store.initializer(tagged).home(home()).actor(ALICE).options(options()).create())
                .isInstanceOf(RejectedException.class).hasMessageContaining("store-exists");
    }

    @Test
    void theKeyHomeTellsWhetherItHoldsTheActorsKeyAndWhere() throws Exception {
        KeyHome home = home();
        assertThat(home.hasKey(ALICE)).isFalse();
        Store.initializer(dir.resolve("s.git")).home(home).actor(ALICE).options(options()).create().close();
        assertThat(home.hasKey(ALICE)).isTrue();
        assertThat(home.secretKeyFile(ALICE)).isEqualTo(home.dir().resolve("keys/alice.sec.asc")).isRegularFile();
    }

    private KeyHome home() {
        return new KeyHome(dir.resolve("home"));
    }

    private static StoreOptions options() {
        return StoreOptions.defaults().withFsync(false);
    }

    private static int git(String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "git";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }
}
