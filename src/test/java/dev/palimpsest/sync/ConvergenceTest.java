package dev.palimpsest.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.api.Store;
import dev.palimpsest.internal.vault.Vault;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.ConflictException;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.PullResult;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.TransferProgress;
import dev.palimpsest.testing.Seed;
import dev.palimpsest.testing.Seeds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replicas around one hub doing random asserts (some sealed), revisions, retractions, forgets and
 * syncs in random order, then a final round of syncs: every replica ends on one tree, every
 * acknowledged commit is in every replica's history, the audit (the vault's key-not-destroyed rule
 * included) and {@code git fsck --strict} are clean everywhere, and every forgotten fact reads as
 * forgotten on every replica, whose vaults no longer hold its key.
 */
@ExtendWith(Seeds.class)
class ConvergenceTest {
    private static final ActorName[] ACTORS = {Replicas.ALICE, Replicas.BOB, Replicas.CAROL};
    private static final TransferProgress NONE = TransferProgress.none();

    @TempDir
    Path dir;

    @Test
    void replicasSyncingInRandomOrderConvergeAndLoseNoAcknowledgedWrite(Seed seed) throws Exception {
        Random rnd = seed.random();
        Replicas rs = Replicas.create(dir);
        int n = 3;
        List<Path> replicas = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            replicas.add(rs.cloneHub("r" + i));
        }
        List<FactId> ids = new ArrayList<>();
        List<FactId> sealed = new ArrayList<>();
        Set<FactId> forgotten = new HashSet<>();
        Set<String> acknowledged = new HashSet<>();
        int merges = 0;
        for (int step = 0; step < 45; step++) {
            int i = rnd.nextInt(n);
            try (Store s = rs.open(replicas.get(i))) {
                int op = rnd.nextInt(11);
                if (op < 3 || ids.isEmpty()) {
                    FactId id = FactId.of("f" + step);
                    var tx = s.begin(ACTORS[i]);
                    FactSpec spec = FactSpec.of(Kind.CLAIM, "Fact " + step + " written on r" + i + ".").id(id);
                    if (rnd.nextInt(3) == 0) {
                        spec = spec.asSensitive();
                        sealed.add(id);
                    }
                    tx.assertFact(spec);
                    acknowledged.add(tx.commit().id().hex());
                    ids.add(id);
                } else if (op >= 9 && !sealed.isEmpty()) {
                    FactId id = sealed.get(rnd.nextInt(sealed.size()));
                    try {
                        acknowledged.add(s.erasure().forget(ACTORS[i], List.of(id), "erasure at step " + step, false)
                                .commit().hex());
                        forgotten.add(id);
                    } catch (RejectedException e) {
                        assertThat(e.violations()).extracting(v -> v.rule()).isSubsetOf(Rule.ALREADY_FORGOTTEN, Rule.NOT_FOUND);
                    }
                } else if (op < 6) {
                    FactId id = ids.get(rnd.nextInt(ids.size()));
                    if (live(s, id) && (!sealed.contains(id) || new Vault(replicas.get(i), false).holds(id))) {
                        acknowledged.add(s.begin(ACTORS[i]).revise(id, "Revision at step " + step + " on r" + i + ".",
                                List.of()).commit().id().hex());
                    }
                } else if (op < 7) {
                    FactId id = ids.get(rnd.nextInt(ids.size()));
                    if (live(s, id)) {
                        acknowledged.add(s.begin(ACTORS[i]).retract(id, "retracted at step " + step).commit().id()
                                .hex());
                    }
                } else {
                    merges += sync(s, ACTORS[i]) ? 1 : 0;
                }
            }
        }
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < n; i++) {
                try (Store s = rs.open(replicas.get(i))) {
                    merges += sync(s, ACTORS[i]) ? 1 : 0;
                }
            }
        }
        ObjectId tree = Replicas.tree(rs.hub);
        List<Path> all = new ArrayList<>(replicas);
        all.add(rs.hub);
        for (Path p : all) {
            assertThat(Replicas.tree(p)).as("tree of %s", p.getFileName()).isEqualTo(tree);
            assertThat(Replicas.head(p)).as("head of %s", p.getFileName()).isEqualTo(Replicas.head(rs.hub));
            assertThat(Replicas.audit(p).violations()).as("audit of %s", p.getFileName()).isEmpty();
            Replicas.Result fsck = Replicas.git(p, "fsck", "--strict");
            assertThat(fsck.code()).as("fsck of %s: %s", p.getFileName(), fsck.output()).isZero();
            assertThat(reachable(p, acknowledged)).as("acknowledged commits in %s", p.getFileName())
                    .isEqualTo(acknowledged.size());
        }
        for (FactId id : forgotten) {
            for (Path p : all) {
                assertThat(new Vault(p, false).holds(id)).as("key of forgotten %s in %s", id, p.getFileName()).isFalse();
                try (Store s = rs.open(p)) {
                    assertThat(catchThrowableOfType(() -> s.read(id, s.head()), NotFoundException.class))
                            .hasMessageContaining("forgotten at");
                }
            }
        }
        assertThat(acknowledged).isNotEmpty();
        System.err.println("convergence: " + acknowledged.size() + " acknowledged writes, " + merges + " merges, "
                + forgotten.size() + " forgotten");
    }

    /** Pull then push, pulling again when another replica pushed meanwhile; true when a merge was written. */
    private static boolean sync(Store s, ActorName actor) throws Exception {
        boolean merged = false;
        for (int attempt = 0; attempt < 5; attempt++) {
            PullResult r = s.replication().pullAs("origin", actor, NONE);
            assertThat(r).isNotInstanceOf(PullResult.Refused.class);
            merged |= r instanceof PullResult.Merged;
            try {
                s.replication().push("origin", NONE);
                return merged;
            } catch (ConflictException e) {
                // someone pushed in between: pull again
            }
        }
        throw new AssertionError("sync did not settle");
    }

    private static boolean live(Store s, FactId id) throws Exception {
        try {
            return s.factLiveAtCommit(id, s.head());
        } catch (dev.palimpsest.model.NotFoundException e) {
            return false;
        }
    }

    private static int reachable(Path gitDir, Set<String> commits) throws Exception {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
                RevWalk w = new RevWalk(r)) {
            var tip = w.parseCommit(r.resolve("refs/heads/main"));
            int found = 0;
            for (String c : commits) {
                if (w.isMergedInto(w.parseCommit(ObjectId.fromString(c)), tip)) {
                    found++;
                }
            }
            return found;
        }
    }
}
