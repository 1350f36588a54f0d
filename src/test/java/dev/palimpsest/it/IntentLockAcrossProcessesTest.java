package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.vault.Vault;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A forget in flight keeps its intent locked against other processes even after its own process
 * looked for orphaned intents (a second channel on the file, once closed, would drop the lock).
 */
class IntentLockAcrossProcessesTest {
    @TempDir
    Path gitDir;

    /** Prints how many orphaned intents the vault of {@code args[0]} has. */
    public static final class Orphans {
        public static void main(String[] args) {
            System.out.println("orphans " + new Vault(Path.of(args[0]), false).orphanedIntents().size());
        }
    }

    @Test
    void anotherProcessSeesNoOrphanWhileTheForgetIsInFlight() throws Exception {
        Vault v = new Vault(gitDir, false);
        Vault.Intent live = v.intendForget();
        assertThat(v.orphanedIntents()).isEmpty();
        assertThat(new Vault(gitDir, false).orphanedIntents()).as("another instance in this process").isEmpty();
        ChildJvm child = ChildJvm.start(Orphans.class, gitDir.toString());
        assertThat(child.waitFor(120)).as(child.stderr()).isZero();
        assertThat(child.lines()).containsExactly("orphans 0");
        live.release();
        child = ChildJvm.start(Orphans.class, gitDir.toString());
        assertThat(child.waitFor(120)).as(child.stderr()).isZero();
        assertThat(child.lines()).as("once its process lets go").containsExactly("orphans 1");
    }
}
