package dev.palimpsest.web;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.api.Replication;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.hub.HubConfig;
import dev.palimpsest.hub.HubServer;
import dev.palimpsest.internal.hub.Tokens;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.Remote;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.TransferProgress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A hub over a small store for the web view's tests: a claim revised once ({@code plan}: v1, then
 * v2), a source and a note that cites it ({@code src}, {@code note}), a retracted fact
 * ({@code old}), a sealed fact forgotten ({@code secret}) and a hostile fact whose 1 MiB body holds
 * markup, script and a bidi override ({@code hostile}), and claims about the entity "Lantern Row"
 * (its timezone superseded once, two owners contradicting), and artifacts with receipts over two assertions,
 * one retracted ({@code crew-merge} alive by its other bundle, {@code crew-summary} with a dead sentence; both
 * acknowledged, so the review queue is empty), and
 * last a claim written on a clone ({@code pulled}) that the store pulled from it by fast-forward. The hub's
 * token is read-only.
 */
final class WebFixture implements AutoCloseable {
    static final FactId PLAN = FactId.of("plan");
    static final FactId SRC = FactId.of("src");
    static final FactId NOTE = FactId.of("note");
    static final FactId OLD = FactId.of("old");
    static final FactId SECRET = FactId.of("secret");
    static final FactId HOSTILE = FactId.of("hostile");
    static final String V1 = "the launch is planned for March";
    static final String V2 = "the launch moved to April";
    static final String SECRET_BODY = "the vault code is 4711";
    static final String HOSTILE_HEAD = "<script>window.pwned=1</script> <img src=x onerror=\"window.pwned=1\"> "
            + "\u202Egnp.exe\u202C & 'quotes' \"double\"";
    /** A body as large as a fact file holds: 1 MiB less room for the YAML around it. */
    static final int HOSTILE_BYTES = (1 << 20) - 4096;

    /** The entity of the claims: its timezone corrected once, its owner contradicted. */
    static final String ENTITY = "Lantern Row";
    static final FactId TZ_OLD = FactId.of("tz-old");
    static final FactId TZ_NEW = FactId.of("tz-new");

    /** Artifacts with receipts: a merge alive by one of its two bundles, a summary with one dead sentence. */
    static final FactId RAMP = FactId.of("ramp");
    static final FactId LIFT = FactId.of("lift");
    static final FactId MERGED = FactId.of("crew-merge");
    static final FactId SUMMARY = FactId.of("crew-summary");
    static final FactId PULLED = FactId.of("pulled");
    static final String RECEIPTS = """
            sources:
              - {id: inspection, body: "The bridge crew signed off the ramp. The bridge crew signed off the lift."}
            assertions:
              - {id: ramp, source: inspection, subject: bridge crew, predicate: signed_off, object: ramp,
                 quote: "The bridge crew signed off the ramp"}
              - {id: lift, source: inspection, subject: bridge crew, predicate: signed_off, object: lift,
                 quote: "The bridge crew signed off the lift"}
            artifacts:
              - {id: crew-merge, kind: merge, body: "bridge crew == inspection crew", receipt: [[ramp], [lift]]}
              - id: crew-summary
                kind: summary
                sentences:
                  - {text: "The <b>ramp</b> was signed off.", receipt: [[ramp]]}
                  - {text: "The lift was signed off.", receipt: [[lift]]}
            """;

    final Store store;
    final HubServer hub;
    final String token;
    final CommitId v1Commit;
    final CommitId v2Commit;
    /** The ingest of the artifacts with receipts, before {@code ramp} was retracted. */
    final CommitId receiptsCommit;
    /** The tip: a commit written on a peer and pulled from remote {@code peer} by fast-forward. */
    final CommitId pulledCommit;
    final ByteArrayOutputStream log = new ByteArrayOutputStream();

    WebFixture(Path tmp) throws Exception {
        store = TestStores.initLexical(tmp);
        KeyHome home = new KeyHome(tmp.resolve("home"));
        var tx = store.begin(TestStores.ALICE);
        tx.assertFact(FactSpec.of(Kind.CLAIM, V1).id(PLAN));
        v1Commit = tx.commit().id();
        var t2 = store.begin(TestStores.ALICE);
        t2.assertFact(FactSpec.of(Kind.SOURCE, "the design review minutes").id(SRC));
        t2.commit();
        var t3 = store.begin(TestStores.ALICE);
        t3.assertFact(FactSpec.of(Kind.CLAIM, "the minutes say the launch slipped").id(NOTE).refs(RefSpec.cites(SRC)));
        t3.commit();
        v2Commit = store.begin(TestStores.ALICE).revise(PLAN, V2, List.of()).commit().id();
        var t4 = store.begin(TestStores.ALICE);
        t4.assertFact(FactSpec.of(Kind.CLAIM, "a claim that turned out wrong").id(OLD));
        t4.commit();
        store.begin(TestStores.ALICE).retract(OLD, "contradicted by the minutes").commit();
        var t5 = store.begin(TestStores.ALICE);
        t5.assertFact(FactSpec.of(Kind.CLAIM, SECRET_BODY).id(SECRET).asSensitive());
        t5.commit();
        store.erasure().forget(TestStores.ALICE, List.of(SECRET), "erasure request", false);
        StringBuilder body = new StringBuilder(HOSTILE_BYTES).append(HOSTILE_HEAD).append('\n');
        while (body.length() < HOSTILE_BYTES) {
            body.append("filler line of a very large hostile body; ");
        }
        body.setLength(HOSTILE_BYTES);
        var t6 = store.begin(TestStores.ALICE);
        t6.assertFact(FactSpec.of(Kind.CLAIM, body.toString()).id(HOSTILE));
        t6.commit();
        store.claims().claim(TestStores.ALICE, claim(TZ_OLD, "timezone", "UTC"));
        store.claims().supersede(TestStores.ALICE, TZ_OLD, claim(TZ_NEW, "timezone", "Europe/Berlin"));
        store.claims().claim(TestStores.ALICE, claim(FactId.of("owner-a"), "owner", "Alice Kim"));
        store.claims().claim(TestStores.ALICE, claim(FactId.of("owner-b"), "owner", "Bob Ng"));
        receiptsCommit = store.receipts().ingest(TestStores.ALICE, RECEIPTS.getBytes(StandardCharsets.UTF_8), false)
                .commit().id();
        store.begin(TestStores.ALICE).retract(RAMP, "the crew's sign-off was withdrawn").commit();
        store.receipts().acknowledge(TestStores.ALICE, MERGED); // reviewed: the review queue stays empty
        store.receipts().acknowledge(TestStores.ALICE, SUMMARY);
        Path peer = tmp.resolve("peer.git");
        Replication.cloneStore(store.gitDir().toString(), peer, StoreOptions.defaults().withFsync(false),
                TransferProgress.none());
        try (Store p = Store.open(peer, home, StoreOptions.defaults().withFsync(false).withoutEmbedder())) {
            var t7 = p.begin(TestStores.ALICE);
            t7.assertFact(FactSpec.of(Kind.CLAIM, "a claim written on the peer").id(PULLED));
            t7.commit();
        }
        store.replication().addRemote(new Remote("peer", peer.toString()));
        store.replication().pull("peer", TransferProgress.none());
        pulledCommit = store.head();
        token = new Tokens(home.dir()).add(TestStores.ALICE, true, Optional.empty(), Instant.now()).secret();
        hub = HubServer.start(store, HubConfig.loopback(0, home), new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    private static ClaimSpec claim(FactId id, String predicate, String object) {
        return new ClaimSpec(id, ENTITY, predicate, object, List.of(RefSpec.of(SRC, RefRole.SOURCE)), null, null, null);
    }

    String url(String path) {
        return hub.url() + path;
    }

    String accessLog() {
        return log.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        hub.stop();
        store.close();
    }
}
