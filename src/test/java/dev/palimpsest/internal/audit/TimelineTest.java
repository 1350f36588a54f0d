package dev.palimpsest.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.internal.crypto.SecretKeyFiles;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.SignatureStatus;
import dev.palimpsest.model.TimelineEntry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Store#timeline}: the log newest first with each commit's signature status as the audit's
 * commit rule judges it (verified; untrusted for an outsider's key, a tampered message or a foreign
 * committer; unsigned), its operations counted by verb and the facts it names; paged by skip and
 * limit.
 */
class TimelineTest {
    @TempDir
    Path tmp;

    private Store store;
    private KeyHome home;

    @BeforeEach
    void open() throws Exception {
        store = TestStores.initLexical(tmp);
        home = new KeyHome(tmp.resolve("home"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private SignatureStatus status(ObjectId c) throws NotFoundException {
        return store.timelineEntry(CommitId.of(c.name())).signature();
    }

    private Forge forge() {
        return Forge.by(store.gitDir(), home, "alice").trailers("alice", "assert", "Palimpsest-Fact", "x");
    }

    @Test
    void theStoresOwnCommitsAreVerifiedWithOperationsCountedAndFactsNamed() throws Exception {
        var tx = store.begin(TestStores.ALICE);
        tx.assertFact(FactSpec.of(Kind.CLAIM, "one").id(FactId.of("a")));
        tx.assertFact(FactSpec.of(Kind.CLAIM, "two").id(FactId.of("b")));
        CommitId two = tx.commit().id();
        CommitId retract = store.begin(TestStores.ALICE).retract(FactId.of("a"), "wrong").commit().id();

        List<TimelineEntry> all = store.timeline(store.head(), 0, 0);
        assertThat(all).extracting(e -> e.commit().commit()).startsWith(retract, two)
                .isEqualTo(store.log(0).stream().map(e -> e.commit()).toList());
        assertThat(all).extracting(TimelineEntry::commit).isEqualTo(store.log(0));
        assertThat(all).allSatisfy(e -> assertThat(e.signature()).isEqualTo(SignatureStatus.VERIFIED));
        assertThat(all.get(1).operations()).containsExactly(Map.entry("assert", 2));
        assertThat(all.get(1).facts()).containsExactly(FactId.of("a"), FactId.of("b"));
        assertThat(all.get(0).operations()).containsExactly(Map.entry("retract", 1));
        assertThat(all.get(0).isMerge()).isFalse();
        assertThat(all.get(all.size() - 1).commit().parents()).as("the genesis commit, verified by its own key").isEmpty();
    }

    @Test
    void skipAndLimitPageTheTimeline() throws Exception {
        for (int i = 0; i < 4; i++) {
            var tx = store.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "claim " + i).id(FactId.of("c" + i)));
            tx.commit();
        }
        List<TimelineEntry> all = store.timeline(store.head(), 0, 0);
        assertThat(store.timeline(store.head(), 1, 2)).isEqualTo(all.subList(1, 3));
        assertThat(store.timeline(store.head(), all.size(), 5)).isEmpty();
        CommitId older = all.get(2).commit().commit();
        assertThat(store.timeline(older, 0, 0)).isEqualTo(all.subList(2, all.size()));
        assertThatThrownBy(() -> store.timeline(store.head(), -1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.timeline(CommitId.of("0".repeat(40)), 0, 0)).isInstanceOf(NotFoundException.class);
    }

    @Test
    void aMergeComesBeforeBothItsParentsAndEachParentBeforeItsOwn() throws Exception {
        ObjectId base = ObjectId.fromString(store.head().hex());
        ObjectId side = Forge.by(store.gitDir(), home, "alice").trailers("alice", "assert", "Palimpsest-Fact", "side")
                .commit(false);
        var tx = store.begin(TestStores.ALICE);
        tx.assertFact(FactSpec.of(Kind.CLAIM, "on main").id(FactId.of("m")));
        CommitId mainTip = tx.commit().id();
        ObjectId merge = Forge.by(store.gitDir(), home, "alice").trailers("alice", "merge", "Palimpsest-Merge", side.name())
                .parents(ObjectId.fromString(mainTip.hex()), side).commit();

        List<CommitId> order = store.timeline(CommitId.of(merge.name()), 0, 0).stream().map(e -> e.commit().commit())
                .toList();
        CommitId m = CommitId.of(merge.name());
        CommitId s = CommitId.of(side.name());
        CommitId b = CommitId.of(base.name());
        assertThat(order.get(0)).isEqualTo(m);
        assertThat(order.indexOf(s)).isPositive().isLessThan(order.indexOf(b));
        assertThat(order.indexOf(mainTip)).isPositive().isLessThan(order.indexOf(b));
        assertThat(order).doesNotHaveDuplicates().hasSize(store.log(0).size());
        TimelineEntry entry = store.timelineEntry(m);
        assertThat(entry.isMerge()).isTrue();
        assertThat(entry.operations()).containsExactly(Map.entry("merge", 1));
    }

    @Test
    void anUnsignedCommitIsUnsigned() throws Exception {
        assertThat(status(forge().unsigned().commit())).isEqualTo(SignatureStatus.UNSIGNED);
    }

    @Test
    void aCommitSignedByAKeyNotTrustedAtItsParentIsUntrusted() throws Exception {
        new SecretKeyFiles(home.dir()).create(ActorName.of("eve"), "eve@x");
        assertThat(status(forge().signedBy("eve").commit())).isEqualTo(SignatureStatus.UNTRUSTED);
    }

    @Test
    void aCommitChangedAfterSigningIsUntrusted() throws Exception {
        assertThat(status(forge().tamperAfterSigning().commit())).isEqualTo(SignatureStatus.UNTRUSTED);
    }

    @Test
    void aCommitWhoseCommitterIsNotItsAuthorIsUntrusted() throws Exception {
        assertThat(status(forge().committer("mallory").commit())).isEqualTo(SignatureStatus.UNTRUSTED);
    }

    @Test
    void aForgedButWellSignedCommitByATrustedActorIsVerified() throws Exception {
        assertThat(status(forge().commit())).as("the signature is good: the audit's other rules judge the content")
                .isEqualTo(SignatureStatus.VERIFIED);
    }
}
