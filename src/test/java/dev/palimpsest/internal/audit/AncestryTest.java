package dev.palimpsest.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.internal.storage.dfs.DfsRepositoryDescription;
import org.eclipse.jgit.internal.storage.dfs.InMemoryRepository;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Ancestry answers by position inside the chain added so far and by walks elsewhere, and stays
 * right when commits arrive after the questions start (a streamed audit) or out of chain order.
 */
class AncestryTest {
    private final InMemoryRepository repo = new InMemoryRepository(new DfsRepositoryDescription("ancestry"));
    private final Map<String, ObjectId> c = new HashMap<>();

    /** c0 - c1 - c2 - c3 - c4 - m (merge of c4 and s1), s1 on top of c2; x unrelated. */
    @BeforeEach
    void history() throws Exception {
        commit("c0");
        commit("c1", "c0");
        commit("c2", "c1");
        commit("c3", "c2");
        commit("c4", "c3");
        commit("s1", "c2");
        commit("m", "c4", "s1");
        commit("x");
    }

    @Test
    void insideTheChainPositionsDecideAndBeforeItTheBaseDoes() {
        Ancestry a = ancestry("c2", "c3", "c4");
        assertThat(a.isAncestorOrSelf(c.get("c2"), c.get("c4"))).isTrue();
        assertThat(a.isAncestorOrSelf(c.get("c4"), c.get("c2"))).isFalse();
        assertThat(a.isAncestorOrSelf(c.get("c3"), c.get("c3"))).isTrue();
        assertThat(a.isAncestorOrSelf(c.get("c0"), c.get("c3"))).as("before the base c1").isTrue();
        assertThat(a.isAncestorOrSelf(c.get("c1"), c.get("c2"))).as("the base itself").isTrue();
        assertThat(a.isAncestorOrSelf(c.get("x"), c.get("c4"))).isFalse();
        assertThat(a.isAncestorOrSelf(c.get("s1"), c.get("c4"))).as("a side commit outside the chain").isFalse();
        assertThat(a.isAncestorOrSelf(c.get("c0"), c.get("c1"))).as("asked of the base").isTrue();
        assertThat(a.isAncestorOrSelf(c.get("c3"), c.get("c1"))).as("a chain commit is no ancestor of the base").isFalse();
    }

    @Test
    void questionsInsideTheChainReadNothingAndOthersWalkOnce() {
        java.util.concurrent.atomic.AtomicInteger readers = new java.util.concurrent.atomic.AtomicInteger();
        Ancestry a = new Ancestry(() -> {
            readers.incrementAndGet();
            return repo.newObjectReader();
        }, java.util.Arrays.stream(new String[] {"c2", "c3", "c4"}).map(this::node).toList());
        assertThat(a.isAncestorOrSelf(c.get("c2"), c.get("c4"))).isTrue();
        assertThat(a.isAncestorOrSelf(c.get("c4"), c.get("c3"))).isFalse();
        assertThat(a.isAncestorOrSelf(c.get("c1"), c.get("c4"))).isTrue();
        assertThat(a.isAncestorOrSelf(c.get("s1"), c.get("c3"))).isFalse();
        assertThat(readers.get()).as("only a commit outside the chain is walked for").isEqualTo(1);
        assertThat(a.isAncestorOrSelf(c.get("s1"), c.get("c4"))).isFalse();
        assertThat(readers.get()).as("and that walk is cached").isEqualTo(1);
        a.add(node("s1"));
        assertThat(a.isAncestorOrSelf(c.get("c2"), c.get("c3"))).isTrue();
        assertThat(readers.get()).as("a commit off the chain leaves the chain's answers to positions").isEqualTo(1);
    }

    @Test
    void askedOfTheBaseAChainCommitIsNoAncestorWithoutAWalkEvenInAChainOfOne() {
        java.util.concurrent.atomic.AtomicInteger readers = new java.util.concurrent.atomic.AtomicInteger();
        Ancestry a = new Ancestry(() -> {
            readers.incrementAndGet();
            return repo.newObjectReader();
        }, List.of(node("c2")));
        assertThat(a.isAncestorOrSelf(c.get("c2"), c.get("c1"))).isFalse();
        assertThat(readers.get()).as("the chain's base is asked by position").isZero();
    }

    @Test
    void commitsAddedAfterQuestionsAreAnsweredToo() {
        Ancestry a = ancestry("c2");
        assertThat(a.isAncestorOrSelf(c.get("c1"), c.get("c2"))).isTrue();
        a.add(node("c3"));
        a.add(node("c4"));
        assertThat(a.isAncestorOrSelf(c.get("c2"), c.get("c4"))).isTrue();
        assertThat(a.isAncestorOrSelf(c.get("c4"), c.get("c3"))).isFalse();
    }

    @Test
    void aCommitAddedLaterThatIsTheChainsBaseIsStillItsAncestor() {
        Ancestry a = ancestry("c2", "c3");
        a.add(node("c1"));
        assertThat(a.isAncestorOrSelf(c.get("c1"), c.get("c3"))).isTrue();
        assertThat(a.isAncestorOrSelf(c.get("c0"), c.get("c3"))).isTrue();
        assertThat(a.isAncestorOrSelf(c.get("c3"), c.get("c1"))).isFalse();
    }

    @Test
    void pastAMergeTheAnswersComeFromWalks() {
        Ancestry a = ancestry("c3", "c4", "s1", "m");
        assertThat(a.isAncestorOrSelf(c.get("s1"), c.get("m"))).isTrue();
        assertThat(a.isAncestorOrSelf(c.get("c3"), c.get("m"))).isTrue();
        assertThat(a.isAncestorOrSelf(c.get("s1"), c.get("c4"))).isFalse();
        assertThat(a.isAncestorOrSelf(c.get("m"), c.get("s1"))).isFalse();
        assertThat(a.isAncestorOrSelf(c.get("c3"), c.get("c4"))).as("still inside the chain").isTrue();
    }

    private Ancestry ancestry(String... names) {
        List<AuditEngine.Node> nodes = java.util.Arrays.stream(names).map(this::node).toList();
        return new Ancestry(repo::newObjectReader, nodes);
    }

    private AuditEngine.Node node(String name) {
        try {
            var raw = RawCommit.parse(repo.open(c.get(name), Constants.OBJ_COMMIT).getCachedBytes());
            return new AuditEngine.Node(c.get(name), raw.tree(), raw.parents());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private void commit(String name, String... parents) throws Exception {
        try (ObjectInserter ins = repo.newObjectInserter()) {
            CommitBuilder cb = new CommitBuilder();
            cb.setTreeId(ins.insert(Constants.OBJ_TREE, new byte[0]));
            for (String p : parents) {
                cb.addParentId(c.get(p));
            }
            PersonIdent who = new PersonIdent("t", "t@example.org", 1_700_000_000_000L + c.size() * 1000L, 0);
            cb.setAuthor(who);
            cb.setCommitter(who);
            cb.setMessage(name + "\n");
            c.put(name, ins.insert(cb));
            ins.flush();
        }
    }
}
