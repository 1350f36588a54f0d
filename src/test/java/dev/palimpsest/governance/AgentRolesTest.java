package dev.palimpsest.governance;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AgentPermission;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.StoreOptions;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an agent key may retract or supersede: not a human's fact, not a dated snapshot, unless the store grants it. */
class AgentRolesTest {
    static final ActorName BOT = ActorName.of("bot");
    static final ActorName CAROL = ActorName.of("carol");
    static final FactId HUMAN_FACT = FactId.of("human-fact");
    static final FactId BOT_FACT = FactId.of("bot-fact");

    @TempDir
    Path dir;

    private Store init(Set<AgentPermission> grants) throws Exception {
        Store s = Store.initializer(dir.resolve("store.git")).home(new KeyHome(dir.resolve("home"))).actor(ALICE)
                .options(StoreOptions.defaults().withFsync(false)).agentsMay(grants).create();
        KeyHome home = new KeyHome(dir.resolve("home"));
        s.begin(ALICE).addKey(BOT, home.generateKey(BOT), KeyRole.AGENT).addKey(CAROL, home.generateKey(CAROL),
                KeyRole.HUMAN).commit();
        var t = s.begin(ALICE);
        t.assertFact(FactSpec.of(Kind.CLAIM, "The pier opens in May.").id(HUMAN_FACT));
        t.commit();
        t = s.begin(BOT);
        t.assertFact(FactSpec.of(Kind.CLAIM, "The pier is 200 m long.").id(BOT_FACT));
        t.commit();
        return s;
    }

    private static RejectedException refused(Store s, dev.palimpsest.api.Transaction t) {
        CommitId before = s.head();
        RejectedException e = catchThrowableOfType(t::commit, RejectedException.class);
        assertThat(e).as("refused").isNotNull();
        assertThat(s.head()).as("nothing written").isEqualTo(before);
        return e;
    }

    private void auditClean() throws Exception {
        try (Auditor a = Auditor.open(dir.resolve("store.git"))) {
            assertThat(a.audit(AuditProgress.none()).violations()).isEmpty();
        }
    }

    @Test
    void anAgentKeyIsRefusedTheRetractionOfAFactAHumanKeyWroteAndNothingIsWritten() throws Exception {
        try (Store s = init(Set.of())) {
            RejectedException e = refused(s, s.begin(BOT).retract(HUMAN_FACT, "outdated"));
            assertThat(e.violations()).extracting(v -> v.rule()).containsExactly(Rule.AGENT_OVERRIDES_HUMAN);
            assertThat(e.getMessage()).contains("human-fact").contains("human alice").contains("override-human");
            assertThat(s.read(HUMAN_FACT, s.head())).isInstanceOf(FactRead.Found.class);
            s.begin(BOT).retract(BOT_FACT, "wrong length").commit();
        }
        auditClean();
    }

    @Test
    void aHumanKeyMayRetractWhatAnAgentMayNot() throws Exception {
        try (Store s = init(Set.of())) {
            s.begin(CAROL).retract(HUMAN_FACT, "the opening moved to June").commit();
            assertThat(s.read(HUMAN_FACT, s.head())).isInstanceOf(FactRead.Retracted.class);
        }
        auditClean();
    }

    @Test
    void anAgentKeyIsRefusedTheSupersessionOfAHumanFactButMaySupersedeAnAgentFact() throws Exception {
        try (Store s = init(Set.of())) {
            var t = s.begin(BOT);
            t.supersede(HUMAN_FACT, FactSpec.of(Kind.CLAIM, "The pier opens in June."));
            RejectedException e = refused(s, t);
            assertThat(e.violations()).extracting(v -> v.rule()).containsExactly(Rule.AGENT_OVERRIDES_HUMAN);
            t = s.begin(BOT);
            t.supersede(BOT_FACT, FactSpec.of(Kind.CLAIM, "The pier is 210 m long."));
            t.commit();
        }
        auditClean();
    }

    @Test
    void anAgentKeyIsRefusedTheRetractionOfADatedSnapshotEvenOfItsOwn() throws Exception {
        try (Store s = init(Set.of())) {
            var t = s.begin(BOT);
            t.supersede(BOT_FACT, FactSpec.of(Kind.CLAIM, "The pier is 210 m long since the extension."));
            t.commit();
            RejectedException e = refused(s, s.begin(BOT).retract(BOT_FACT, "overtaken"));
            assertThat(e.violations()).extracting(v -> v.rule()).containsExactly(Rule.AGENT_RETRACTS_SNAPSHOT);
            assertThat(e.getMessage()).contains("dated snapshot").contains("retract-snapshot");
            s.begin(CAROL).retract(BOT_FACT, "a human decides history may go").commit();
        }
        auditClean();
    }

    @Test
    void agentsMayInTheConfigGrantsWhatIsRefusedByDefault() throws Exception {
        try (Store s = init(Set.of(AgentPermission.OVERRIDE_HUMAN, AgentPermission.RETRACT_SNAPSHOT))) {
            String config = configAt(s);
            assertThat(config).contains("agents_may:\n- \"override-human\"\n- \"retract-snapshot\"\n");
            var t = s.begin(BOT);
            t.supersede(BOT_FACT, FactSpec.of(Kind.CLAIM, "The pier is 210 m long."));
            t.commit();
            s.begin(BOT).retract(BOT_FACT, "a snapshot, retracted as granted").commit();
            s.begin(BOT).retract(HUMAN_FACT, "granted").commit();
        }
        auditClean();
    }

    private static String configAt(Store s) throws Exception {
        try (org.eclipse.jgit.lib.Repository r = new org.eclipse.jgit.storage.file.FileRepositoryBuilder()
                .setGitDir(s.gitDir().toFile()).build(); org.eclipse.jgit.revwalk.RevWalk w = new org.eclipse.jgit.revwalk.RevWalk(r);
                org.eclipse.jgit.treewalk.TreeWalk tw = org.eclipse.jgit.treewalk.TreeWalk.forPath(r, "palimpsest.yaml",
                        w.parseCommit(org.eclipse.jgit.lib.ObjectId.fromString(s.head().hex())).getTree())) {
            return new String(r.open(tw.getObjectId(0)).getBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void anUnknownGrantIsRefusedAtInit() {
        assertThat(catchThrowableOfType(() -> AgentPermission.parse("retract-anything"), IllegalArgumentException.class))
                .hasMessageContaining("retract-anything").hasMessageContaining("override-human");
    }
}
