package dev.palimpsest.internal.merge;

import static dev.palimpsest.internal.merge.History.edits;
import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.KeyCodec;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.KeyRole;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;

/**
 * The key settlements on hand-made histories: one fingerprint under two names, and every key
 * revoked across the two sides; each the same in both orders.
 */
class MergeSettleKeysTest {
    private static final String FP1 = "1".repeat(40);
    private static final String FP2 = "2".repeat(40);

    private final History h = new History();

    @Test
    void ofOneKeyAddedUnderTwoNamesTheEarlierAdditionStaysWhicheverNameSortsFirst() throws Exception {
        ObjectId base = h.commit(0, edits("palimpsest.yaml", "format: 1\n"));
        ObjectId a = h.commit(10, keys(key("zed", FP1), key("yak", FP2)), base);
        ObjectId b = h.commit(20, keys(key("bea", FP1), key("amy", FP2)), base);
        History.Merged m = h.merge(a, b);
        assertThat(m.result().settled()).containsExactly("key-in-use amy yak", "key-in-use bea zed");
        assertThat(m.files()).containsKeys("keys/zed.yaml", "keys/yak.yaml")
                .doesNotContainKeys("keys/bea.yaml", "keys/amy.yaml");
    }

    @Test
    void keyRecordsThatDoNotDecodeShareNoFingerprint() throws Exception {
        ObjectId base = h.commit(0, edits("palimpsest.yaml", "format: 1\n"));
        ObjectId a = h.commit(10, edits("keys/x.asc", "x key", "keys/x.yaml", "not a record"), base);
        ObjectId b = h.commit(20, edits("keys/y.asc", "y key", "keys/y.yaml", "not a record either"), base);
        History.Merged m = h.merge(a, b);
        assertThat(m.result().settled()).isEmpty();
        assertThat(m.files()).containsKeys("keys/x.yaml", "keys/y.yaml");
    }

    @Test
    void everyKeyRevokedKeepsTheKeyWhoseRevocationOnItsSideIsLatestThenTheLargerName() throws Exception {
        ObjectId old = h.commit(300, keys("amy", "bob", "cal", "dan"));
        ObjectId gone = h.commit(301, revoke("amy"), old);
        ObjectId base = h.commit(302, keys("amy"), gone);
        ObjectId a = h.commit(20, revoke("bob", "cal"), base);
        ObjectId b0 = h.commit(5, edits("notes/b", "b"), base);
        ObjectId b = h.commit(10, revoke("amy", "dan"), b0);
        History.Merged m = h.merge(a, b);
        assertThat(m.result().settled()).containsExactly("last-key cal");
        assertThat(m.files()).containsKeys("keys/cal.asc", "keys/cal.yaml")
                .doesNotContainKeys("keys/amy.asc", "keys/bob.asc", "keys/dan.asc");
    }

    @Test
    void everyKeyRevokedOnOneSideAloneIsNotSettled() throws Exception {
        String fact = StorePaths.candidatePaths(FactId.of("f")).get(0);
        ObjectId base = h.commit(0, plus(keys("amy", "bob", "cal"), fact, "version 0"));
        ObjectId a = h.commit(10, revoke("amy", "bob", "cal"), base);
        ObjectId b = h.commit(20, edits(fact, "version b", "keys/cal.asc", null), base);
        History.Merged m = h.merge(a, b);
        assertThat(m.result().settled()).isEmpty();
        assertThat(m.files()).doesNotContainKeys("keys/amy.asc", "keys/bob.asc", "keys/cal.yaml").containsKey(fact);
    }

    @Test
    void aKeyNeitherSideTouchedKeepsTheStoreKeyedAndNothingIsSettled() throws Exception {
        ObjectId base = h.commit(0, keys("amy", "bob", "cat"));
        ObjectId a = h.commit(10, revoke("bob"), base);
        ObjectId b = h.commit(20, revoke("cat"), base);
        History.Merged m = h.merge(a, b);
        assertThat(m.result().settled()).isEmpty();
        assertThat(m.files()).containsKeys("keys/amy.asc", "keys/amy.yaml").doesNotContainKeys("keys/bob.asc",
                "keys/cat.asc");
    }

    /** An actor's key file and a record of {@code fingerprint}. */
    private static String[] key(String actor, String fingerprint) {
        String record = new String(KeyCodec.encode(new ActorKey(ActorName.of(actor), KeyRole.AGENT, fingerprint)),
                StandardCharsets.UTF_8);
        return edits("keys/" + actor + ".asc", actor + " key", "keys/" + actor + ".yaml", record);
    }

    private static String[] keys(String[]... each) {
        List<String> out = new ArrayList<>();
        for (String[] e : each) {
            out.addAll(List.of(e));
        }
        return out.toArray(String[]::new);
    }

    /** Key files (undecodable records) for each actor. */
    private static String[] keys(String... actors) {
        List<String> out = new ArrayList<>();
        for (String actor : actors) {
            out.addAll(List.of("keys/" + actor + ".asc", actor + " key", "keys/" + actor + ".yaml", actor + " record"));
        }
        return out.toArray(String[]::new);
    }

    private static String[] revoke(String... actors) {
        List<String> out = new ArrayList<>();
        for (String actor : actors) {
            out.add("keys/" + actor + ".asc");
            out.add(null);
            out.add("keys/" + actor + ".yaml");
            out.add(null);
        }
        return out.toArray(String[]::new);
    }

    private static String[] plus(String[] edits, String... more) {
        List<String> out = new ArrayList<>(List.of(edits));
        out.addAll(List.of(more));
        return out.toArray(String[]::new);
    }
}
