package dev.palimpsest.internal.audit;

import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.KeyRole;
import static dev.palimpsest.api.TestStores.ALICE;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.internal.crypto.OpenPgpKeys;
import dev.palimpsest.internal.crypto.SecretKeyFiles;
import dev.palimpsest.internal.crypto.TrustedKey;
import dev.palimpsest.internal.layout.FileMeta;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.FactCodec;
import dev.palimpsest.internal.yaml.KeyCodec;
import dev.palimpsest.internal.yaml.RetractionRecord;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.BlobId;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactVersion;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Pin;
import dev.palimpsest.model.Receipt;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.Rule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.jgit.lib.ObjectId;

/**
 * One forged history per audit-checked rule: each case, given a store written through the gate
 * (a source {@code src-1} and a claim {@code claim-1} citing it with a quote), forges commits past
 * the gate that break its rule, and names every rule the audit must then report.
 */
final class ForgedCases {
    /** The store the cases forge on. */
    record Store(Path gitDir, KeyHome home, CommitId srcCommit, BlobId srcBlob, CommitId claimCommit,
            BlobId claimBlob, Fact claim, ObjectId main) {
        Forge forge() {
            return Forge.by(gitDir, home, "alice");
        }

        Ref srcRef(RefRole role, String quote) {
            return new Ref(SRC, role, srcCommit, srcBlob, quote);
        }
    }

    /** Forges on {@code s} and returns the commit the violations must be found in. */
    interface Forging {
        ObjectId forge(Store s) throws Exception;
    }

    /** The rule a forged history breaks, every rule the audit reports on it, and how it is forged. */
    record Case(Rule rule, Set<Rule> reported, Forging forging, String name) {
        Case(Rule rule, Set<Rule> reported, Forging forging) {
            this(rule, reported, forging, rule.id());
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static final FactId SRC = FactId.of("src-1");
    static final FactId CLAIM = FactId.of("claim-1");
    static final String SRC_BODY = "The harbour board approved the new breakwater by seven votes to two.";
    private static final FactId X = FactId.of("fact-x");
    private static final String SIG = "-----BEGIN PGP SIGNATURE-----\n\nbm90IGEgc2lnbmF0dXJl\n=AAAA\n"
            + "-----END PGP SIGNATURE-----\n";

    private ForgedCases() {}

    static List<Case> all() {
        List<Case> cs = new ArrayList<>();
        commitObject(cs);
        message(cs);
        files(cs);
        refs(cs);
        layers(cs);
        claims(cs);
        forgets(cs);
        roles(cs);
        return cs;
    }

    private static final ActorName BOT = ActorName.of("bot");

    /** Adds the agent key {@code bot} through the gate (its secret in the key home). */
    private static void agent(Store s) throws Exception {
        try (dev.palimpsest.api.Store st = open(s)) {
            st.begin(ALICE).addKey(BOT, s.home().generateKey(BOT), KeyRole.AGENT).commit();
        }
    }

    private static Forge retraction(Store s, FactVersion v, Kind kind) {
        return Forge.by(s.gitDir(), s.home(), BOT.value()).remove(path(v.id(), kind))
                .put(StorePaths.retractionPath(v.id()), FactCodec.encode(new RetractionRecord(v, "an agent retracts it",
                        BOT)))
                .trailers(BOT.value(), "retract", "Palimpsest-Fact", v.id().value());
    }

    private static void roles(List<Case> cs) {
        add(cs, Rule.AGENT_OVERRIDES_HUMAN, s -> {
            agent(s);
            return retraction(s, new FactVersion(CLAIM, s.claimCommit(), s.claimBlob()), Kind.CLAIM).commit();
        });
        cs.add(new Case(Rule.AGENT_OVERRIDES_HUMAN, Set.of(Rule.AGENT_OVERRIDES_HUMAN), s -> {
            agent(s);
            Fact f = new Fact(X, Kind.CLAIM, "An agent supersedes a human's claim.", null,
                    List.of(new Ref(CLAIM, RefRole.SUPERSEDES, s.claimCommit(), s.claimBlob(), null)));
            return Forge.by(s.gitDir(), s.home(), BOT.value()).put(path(X, Kind.CLAIM), FactCodec.encode(f))
                    .trailers(BOT.value(), "assert", "Palimpsest-Fact", X.value()).commit();
        }, "agent-overrides-human (supersede)"));
        add(cs, Rule.AGENTS_MAY_HUMAN_ONLY, s -> {
            agent(s);
            byte[] grant = FactCodec.encode(dev.palimpsest.internal.yaml.StoreConfig.current().withAgentsMay(
                    Set.of(dev.palimpsest.model.AgentPermission.OVERRIDE_HUMAN)));
            return Forge.by(s.gitDir(), s.home(), BOT.value()).put(StorePaths.CONFIG, grant)
                    .trailers(BOT.value(), "configure", "Palimpsest-Config", StorePaths.CONFIG).commit();
        });
        add(cs, Rule.AGENT_RETRACTS_SNAPSHOT, s -> {
            agent(s);
            FactId old = FactId.of("bot-claim");
            FactVersion v;
            try (dev.palimpsest.api.Store st = open(s)) {
                var tx = st.begin(BOT);
                tx.assertFact(dev.palimpsest.model.FactSpec.of(Kind.CLAIM, "The vote was seven to two.").id(old));
                tx.commit();
                v = ((dev.palimpsest.model.FactRead.Found) st.read(old, st.head())).version();
                tx = st.begin(BOT);
                tx.supersede(old, dev.palimpsest.model.FactSpec.of(Kind.CLAIM, "Recounted: six to three."));
                tx.commit();
            }
            return retraction(s, v, Kind.CLAIM).commit();
        });
    }

    static dev.palimpsest.api.Store open(Store s) throws Exception {
        return dev.palimpsest.api.Store.open(s.gitDir(), s.home(),
                dev.palimpsest.model.StoreOptions.defaults().withFsync(false));
    }

    /** Writes a sealed fact through the gate; returns the commit. */
    private static CommitId sealed(dev.palimpsest.api.Store st, String id) throws Exception {
        var tx = st.begin(ALICE);
        tx.assertFact(dev.palimpsest.model.FactSpec.of(Kind.of("note"), "Sealed words of " + id + " here.")
                .id(FactId.of(id)).asSensitive());
        return tx.commit().id();
    }

    private static byte[] tombstone(FactId id, String digest, FactId... closure) {
        return dev.palimpsest.internal.yaml.TombstoneRecord.encode(new dev.palimpsest.internal.yaml.TombstoneRecord(id,
                digest, "forged", ALICE, null, new java.util.TreeSet<>(List.of(closure))));
    }

    private static void forgets(List<Case> cs) {
        add(cs, Rule.PLAINTEXT_CITER, s -> {
            FactVersion v;
            try (dev.palimpsest.api.Store st = open(s)) {
                CommitId at = sealed(st, "sx");
                v = st.factExistsAt(FactId.of("sx"), at).version();
            }
            return claim(s.forge(), "Cites sealed words in the clear.", new Ref(v.id(), RefRole.of("cites"), v.commit(),
                    v.blob(), null)).commit();
        });
        cs.add(new Case(Rule.PLAINTEXT_CITER, Set.of(Rule.PLAINTEXT_CITER), s -> {
            FactVersion v;
            try (dev.palimpsest.api.Store st = open(s)) {
                CommitId at = sealed(st, "sx");
                v = st.factExistsAt(FactId.of("sx"), at).version();
            }
            return layered(s, "m-x", Kind.MERGE, new Grounding(null, null, null, new Receipt(List.of(List.of(new Pin(
                    v.id(), v.commit(), v.blob())))), List.of(), false));
        }, "plaintext-citer (a merge resting on sealed content)"));
        String zeros = "0".repeat(64);
        add(cs, Rule.MALFORMED_FILE, s -> s.forge().remove(path(SRC, Kind.SOURCE))
                .put(StorePaths.tombstonePath(SRC), "id: [not a tombstone\n")
                .trailers("alice", "forget", "Palimpsest-Fact", SRC.value()).commit());
        add(cs, Rule.FORGET_INCONSISTENT, Set.of(Rule.TRAILER_MISMATCH), s -> {
            FactId sx = FactId.of("sx");
            String digest;
            try (dev.palimpsest.api.Store st = open(s)) {
                CommitId at = sealed(st, sx.value());
                digest = ((dev.palimpsest.model.FactRead.Found) st.read(sx, at)).fact().seal().digest();
                Files.delete(st.gitDir().resolve("palimpsest-vault").resolve(StorePaths.shard(sx)).resolve("sx.key"));
            }
            return s.forge().put(StorePaths.tombstonePath(sx), tombstone(sx, digest))
                    .trailers("alice", "forget", "Palimpsest-Fact", sx.value()).commit();
        });
        add(cs, Rule.FORGET_INCONSISTENT, s -> s.forge().remove(path(SRC, Kind.SOURCE))
                .put(StorePaths.tombstonePath(SRC), tombstone(SRC, zeros, CLAIM))
                .trailers("alice", "forget", "Palimpsest-Fact", SRC.value()).commit());
        add(cs, Rule.TOMBSTONE_CLOSURE, Set.of(Rule.FORGET_INCONSISTENT), s -> s.forge().remove(path(SRC, Kind.SOURCE))
                .put(StorePaths.tombstonePath(SRC), tombstone(SRC, zeros))
                .trailers("alice", "forget", "Palimpsest-Fact", SRC.value()).commit());
        add(cs, Rule.TOMBSTONE_REWRITTEN, Set.of(Rule.UNEXPLAINED_CHANGE), s -> {
            FactId sx = FactId.of("sx");
            try (dev.palimpsest.api.Store st = open(s)) {
                sealed(st, sx.value());
                st.erasure().forget(ALICE, List.of(sx), "gone", false);
            }
            return claim(s.forge(), "and rewrites a tombstone").put(StorePaths.tombstonePath(sx), tombstone(sx, zeros))
                    .commit();
        });
        add(cs, Rule.TOMBSTONE_REWRITTEN, s -> {
            FactId sx = FactId.of("sx");
            try (dev.palimpsest.api.Store st = open(s)) {
                sealed(st, sx.value());
                st.erasure().forget(ALICE, List.of(sx), "gone", false);
            }
            return put(s.forge(), fact(sx.value(), Kind.CLAIM, "Written again after its forget."))
                    .trailers("alice", "assert", "Palimpsest-Fact", sx.value()).commit();
        });
        add(cs, Rule.FORGET_CASCADE, s -> {
            FactId sx = FactId.of("sx");
            String digest;
            try (dev.palimpsest.api.Store st = open(s)) {
                sealed(st, "sx");
                CommitId at = sealed(st, "sy");
                digest = ((dev.palimpsest.model.FactRead.Found) st.read(sx, at)).fact().seal().digest();
                var tx = st.begin(ALICE);
                var receipt = new dev.palimpsest.model.Receipt(List.of(List.of(dev.palimpsest.model.Pin.of(sx),
                        dev.palimpsest.model.Pin.of(FactId.of("sy")))));
                tx.merge(List.of(sx, FactId.of("sy")), dev.palimpsest.model.FactSpec.of(Kind.of("merge"), "Both merged.")
                        .id(FactId.of("m")).grounding(new dev.palimpsest.model.Grounding(null, null, null, receipt,
                                List.of(), false)));
                tx.commit();
                java.nio.file.Files.delete(st.gitDir().resolve("palimpsest-vault").resolve(StorePaths.shard(sx))
                        .resolve("sx.key"));
            }
            return s.forge().put(StorePaths.tombstonePath(sx), tombstone(sx, digest, FactId.of("m")))
                    .trailers("alice", "forget", "Palimpsest-Fact", sx.value()).commit();
        });
        add(cs, Rule.KEY_NOT_DESTROYED, s -> {
            FactId sx = FactId.of("sx");
            java.nio.file.Path key = s.gitDir().resolve("palimpsest-vault").resolve(StorePaths.shard(sx)).resolve("sx.key");
            byte[] bytes;
            CommitId c;
            try (dev.palimpsest.api.Store st = open(s)) {
                sealed(st, sx.value());
                bytes = java.nio.file.Files.readAllBytes(key);
                c = st.erasure().forget(ALICE, List.of(sx), "gone", false).commit();
            }
            // put back once no process runs (one that did would destroy it again on its next look at main)
            java.nio.file.Files.write(key, bytes);
            return ObjectId.fromString(c.hex());
        });
    }

    private static void commitObject(List<Case> cs) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        add(cs, Rule.UNSIGNED, s -> claim(s.forge(), "unsigned").unsigned().commit());
        add(cs, Rule.MALFORMED_SIGNATURE, s -> claim(s.forge(), "garbage signature").rawSignature(SIG).commit());
        add(cs, Rule.BAD_SIGNATURE, s -> claim(s.forge(), "changed after signing").tamperAfterSigning().commit());
        add(cs, Rule.UNTRUSTED_SIGNER, s -> {
            new SecretKeyFiles(s.home().dir()).create(ActorName.of("eve"), "eve@x");
            return claim(s.forge(), "signed by an outsider").signedBy("eve").commit();
        });
        add(cs, Rule.IDENTITY_MISMATCH, s -> claim(s.forge(), "someone else commits").committer("mallory").commit());
        add(cs, Rule.NOT_LINEAR, s -> {
            ObjectId side = put(s.forge(), fact("side", Kind.CLAIM, "a side line")).trailers("alice", "assert",
                    "Palimpsest-Fact", "side").commit(false);
            ObjectId other = put(s.forge(), fact("other", Kind.CLAIM, "another side line")).trailers("alice",
                    "assert", "Palimpsest-Fact", "other").commit(false);
            return claim(s.forge(), "merges two side lines").parents(s.main(), side, other).commit();
        });
        add(cs, Rule.MERGE_MISMATCH, s -> {
            ObjectId side = put(s.forge(), fact("side", Kind.CLAIM, "a side line")).trailers("alice", "assert",
                    "Palimpsest-Fact", "side").commit(false);
            return claim(s.forge(), "a merge that also asserts").parents(s.main(), side).commit();
        });
        add(cs, Rule.SIGNATURE_TIME, s -> claim(s.forge(), "signed a day later").signedAt(now.plus(Duration.ofDays(1)))
                .commit());
        add(cs, Rule.AUTHOR_TIME, s -> claim(s.forge(), "authored an hour earlier")
                .dated(now.minus(Duration.ofHours(1)), now).commit());
        add(cs, Rule.TIME_ZONE, s -> claim(s.forge(), "dated in +0500").zone(ZoneOffset.ofHours(5)).commit());
        add(cs, Rule.TIME_REGRESSION, s -> {
            Instant past = now.minus(Duration.ofDays(400));
            return claim(s.forge(), "dated before its parent").dated(past, past).commit();
        });
        add(cs, Rule.FUTURE_TIME, s -> {
            Instant later = now.plus(Duration.ofDays(400));
            return claim(s.forge(), "dated next year").dated(later, later).commit();
        });
        add(cs, Rule.MALFORMED_OBJECT, s -> {
            Fact other = new Fact(CLAIM, Kind.CLAIM, "A second file of the same name.", null, s.claim().refs());
            ObjectId tree = RawTrees.mainWith(s.gitDir(), path(CLAIM, Kind.CLAIM), "100644",
                    RawTrees.blob(s.gitDir(), FactCodec.encode(other)), RawTrees.Placement.DUPLICATE);
            return s.forge().tree(tree).trailers("alice", "revise", "Palimpsest-Fact", CLAIM.value()).commit();
        });
        add(cs, Rule.TOO_LARGE, s -> put(s.forge(), fact(X.value(), Kind.CLAIM,
                "x".repeat(dev.palimpsest.model.Limits.MAX_FILE))).trailers("alice", "assert", "Palimpsest-Fact",
                X.value()).commit());
        add(cs, Rule.UNREADABLE, s -> {
            ObjectId tree = RawTrees.mainWith(s.gitDir(), path(X, Kind.CLAIM), "100644",
                    ObjectId.fromString("1234567890123456789012345678901234567890"), RawTrees.Placement.REPLACE);
            return s.forge().tree(tree).trailers("alice", "assert", "Palimpsest-Fact", X.value()).commit();
        });
        add(cs, Rule.INDEX_DISAGREES, s -> {
            Path log = s.gitDir().resolve("palimpsest-index").resolve("index-v1.log");
            Files.write(log, "not an index".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return s.main();
        });
    }

    private static void message(List<Case> cs) {
        add(cs, Rule.RETRACTION_INCONSISTENT, s -> {
            try (dev.palimpsest.api.Store st = open(s)) {
                var tx = st.begin(ALICE);
                tx.retract(SRC, "withdrawn");
                tx.commit();
            }
            return put(s.forge(), fact(SRC.value(), Kind.SOURCE, "Asserted again, its retraction record kept."))
                    .trailers("alice", "assert", "Palimpsest-Fact", SRC.value()).commit();
        });
        add(cs, Rule.BAD_TRAILERS, s -> put(s.forge(), fact(X.value(), Kind.CLAIM, "an unknown verb"))
                .message("x\n\nPalimpsest-Actor: alice\nPalimpsest-Op: assert\nPalimpsest-Fact: fact-x\n"
                        + "Palimpsest-Op: frobnicate\nPalimpsest-Fact: fact-y\n").commit());
        add(cs, Rule.TRAILER_MISMATCH, s -> put(s.forge(), fact(X.value(), Kind.CLAIM, "the trailer names bob"))
                .trailers("bob", "assert", "Palimpsest-Fact", X.value()).commit());
        add(cs, Rule.UNEXPLAINED_CHANGE, s -> claim(s.forge(), "one of two files explained")
                .put(path(FactId.of("fact-y"), Kind.CLAIM), FactCodec.encode(fact("fact-y", Kind.CLAIM, "unexplained")))
                .commit());
        add(cs, Rule.RETRACTION_INCONSISTENT, Set.of(Rule.TRAILER_MISMATCH), s -> s.forge()
                .put(StorePaths.retractionPath(SRC), FactCodec.encode(new RetractionRecord(new FactVersion(SRC,
                        s.srcCommit(), s.srcBlob()), "the file stays", ALICE)))
                .trailers("alice", "retract", "Palimpsest-Fact", SRC.value()).commit());
    }

    private static void files(List<Case> cs) {
        add(cs, Rule.MALFORMED_FILE, s -> s.forge().put(path(X, Kind.CLAIM), "id: fact-x\nkind: claim\nbody: bare\n")
                .trailers("alice", "assert", "Palimpsest-Fact", X.value()).commit());
        add(cs, Rule.WRONG_PATH, s -> s.forge().put(path(X, Kind.SOURCE), FactCodec.encode(fact("fact-x", Kind.CLAIM,
                "a claim among sources"))).trailers("alice", "assert", "Palimpsest-Fact", X.value()).commit());
        add(cs, Rule.UNEXPECTED_PATH, Set.of(Rule.UNEXPLAINED_CHANGE), s -> claim(s.forge(), "and a stray file")
                .put("README.md", "hello").commit());
        add(cs, Rule.UNEXPECTED_MODE, s -> {
            ObjectId tree = RawTrees.mainWith(s.gitDir(), path(X, Kind.CLAIM), "100755",
                    RawTrees.blob(s.gitDir(), FactCodec.encode(fact("fact-x", Kind.CLAIM, "executable"))),
                    RawTrees.Placement.REPLACE);
            return s.forge().tree(tree).trailers("alice", "assert", "Palimpsest-Fact", X.value()).commit();
        });
        add(cs, Rule.DUPLICATE_ID, Set.of(Rule.UNEXPLAINED_CHANGE), s -> claim(s.forge(), "live twice")
                .put(path(X, Kind.SOURCE), FactCodec.encode(fact("fact-x", Kind.SOURCE, "live twice"))).commit());
        add(cs, Rule.KIND_CHANGED, s -> put(s.forge(), new Fact(CLAIM, Kind.HYPOTHESIS, "Now a hypothesis.", null,
                s.claim().refs())).trailers("alice", "revise", "Palimpsest-Fact", CLAIM.value()).commit());
        add(cs, Rule.INVALID_KEY, s -> {
            TrustedKey dave = TrustedKey.of(OpenPgpKeys.publicRing(OpenPgpKeys.generate("dave", "d@x",
                    new java.util.Date())));
            return s.forge().put("keys/dave.asc", dave.armored()).put("keys/dave.yaml", KeyCodec.encode(
                    new ActorKey(ActorName.of("dave"), KeyRole.AGENT, aliceKey(s).fingerprint())))
                    .trailers("alice", "key-add", "Palimpsest-Key", "dave").commit();
        });
        add(cs, Rule.KEY_IN_USE, s -> s.forge().put("keys/dave.asc", aliceKey(s).armored()).put("keys/dave.yaml",
                KeyCodec.encode(new ActorKey(ActorName.of("dave"), KeyRole.AGENT, aliceKey(s).fingerprint())))
                .trailers("alice", "key-add", "Palimpsest-Key", "dave").commit());
    }

    private static void refs(List<Case> cs) {
        add(cs, Rule.REFS_REWRITTEN, s -> put(s.forge(), fact(CLAIM.value(), Kind.CLAIM, "The ref is gone."))
                .trailers("alice", "revise", "Palimpsest-Fact", CLAIM.value()).commit());
        add(cs, Rule.DUPLICATE_REF, s -> claim(s.forge(), "cites twice", s.srcRef(RefRole.of("cites"), null),
                s.srcRef(RefRole.of("cites"), null)).commit());
        add(cs, Rule.SELF_REFERENCE, s -> claim(s.forge(), "cites itself", new Ref(X, RefRole.of("cites"), null, null, null))
                .commit());
        add(cs, Rule.PIN_UNKNOWN, s -> claim(s.forge(), "pins nothing real", new Ref(SRC, RefRole.of("cites"),
                CommitId.of("1234567890123456789012345678901234567890"), s.srcBlob(), null)).commit());
        add(cs, Rule.PIN_NOT_ANCESTOR, s -> {
            ObjectId side = claim(s.forge(), "on no branch").commit(false);
            return claim(s.forge(), "pins a side commit", new Ref(SRC, RefRole.of("cites"), CommitId.of(side.name()),
                    s.srcBlob(), null)).commit();
        });
        add(cs, Rule.PIN_MISMATCH, s -> claim(s.forge(), "pins a made-up blob", new Ref(SRC, RefRole.of("cites"), s.srcCommit(),
                BlobId.of("1234567890123456789012345678901234567890"), null)).commit());
        add(cs, Rule.UNPINNED_REF, s -> claim(s.forge(), "unpinned", new Ref(SRC, RefRole.of("cites"), null, null, null)).commit());
        add(cs, Rule.QUOTE_TOO_SHORT, s -> claim(s.forge(), "quotes two words", s.srcRef(RefRole.of("cites"), "seven votes"))
                .commit());
        add(cs, Rule.QUOTE_NOT_FOUND, s -> claim(s.forge(), "misquotes", s.srcRef(RefRole.of("cites"),
                "approved unanimously by all")).commit());
        add(cs, Rule.SUBSUMES_NON_HYPOTHESIS, s -> claim(s.forge(), "subsumes a source", s.srcRef(RefRole.of("subsumes"), null))
                .commit());
    }

    private static void layers(List<Case> cs) {
        Receipt self = new Receipt(List.of(List.of(Pin.of(FactId.of("m-x")))));
        Receipt ghost = new Receipt(List.of(List.of(Pin.of(FactId.of("ghost")))));
        add(cs, Rule.ASSERTION_TRIPLE, s -> layered(s, "a-x", Kind.ASSERTION, Grounding.NONE,
                s.srcRef(RefRole.of("source"), null)));
        add(cs, Rule.ASSERTION_SOURCE, s -> layered(s, "a-x", Kind.ASSERTION, Grounding.triple("ERK", "regulates",
                "apoptosis"), new Ref(CLAIM, RefRole.of("source"), s.claimCommit(), s.claimBlob(), null)));
        add(cs, Rule.RECEIPT_ON_ASSERTION, s -> layered(s, "a-x", Kind.ASSERTION, new Grounding("ERK", "regulates",
                "apoptosis", members(s), List.of(), false), s.srcRef(RefRole.of("source"), null)));
        add(cs, Rule.RECEIPT_REQUIRED, s -> layered(s, "m-x", Kind.MERGE, Grounding.NONE));
        add(cs, Rule.FLAT_UNFLAGGED, s -> layered(s, "m-x", Kind.SUMMARY, new Grounding(null, null, null,
                members(s), List.of(), false)));
        add(cs, Rule.SENTENCES_ON_NON_SUMMARY, s -> layered(s, "m-x", Kind.MERGE, new Grounding(null, null, null,
                members(s), List.of(), true)));
        add(cs, Rule.EDGE_TRIPLE, s -> layered(s, "m-x", Kind.EDGE, new Grounding(null, null, null, members(s),
                List.of(), false)));
        add(cs, Rule.GROUNDING_ON_PLAIN_FACT, s -> layered(s, "m-x", Kind.CLAIM, Grounding.triple("ERK", "regulates",
                "apoptosis")));
        add(cs, Rule.SELF_RECEIPT, s -> layered(s, "m-x", Kind.MERGE, new Grounding(null, null, null, self,
                List.of(), false)));
        add(cs, Rule.RECEIPT_CYCLE, s -> {
            Fact mx = new Fact(FactId.of("m-x"), Kind.MERGE, "rests on m-y", null, List.of(), null, new Grounding(null,
                    null, null, new Receipt(List.of(List.of(Pin.of(FactId.of("m-y"))))), List.of(), false));
            Fact my = new Fact(FactId.of("m-y"), Kind.MERGE, "rests on m-x", null, List.of(), null, new Grounding(null,
                    null, null, new Receipt(List.of(List.of(Pin.of(FactId.of("m-x"))))), List.of(), false));
            return put(put(s.forge(), mx), my).trailers("alice", "assert", "Palimpsest-Fact", "m-x", "assert",
                    "Palimpsest-Fact", "m-y").commit();
        });
        add(cs, Rule.RECEIPT_MEMBER_MISSING, s -> layered(s, "m-x", Kind.MERGE, new Grounding(null, null, null,
                ghost, List.of(), false)));
    }

    /** The gate's per-fact claim, supersession and file-record rules, replayed by the audit. */
    private static void claims(List<Case> cs) {
        add(cs, Rule.CLAIM_TRIPLE, s -> layered(s, "c-x", Kind.ENTITY_CLAIM, Grounding.triple("ERK", "--", "apoptosis"),
                s.srcRef(RefRole.SOURCE, null)));
        add(cs, Rule.CLAIM_SOURCE, s -> layered(s, "c-x", Kind.ENTITY_CLAIM, Grounding.triple("ERK", "regulates",
                "apoptosis")));
        // a ref to itself is also a self-reference, at write time as at audit time
        add(cs, Rule.SELF_SUPERSESSION, Set.of(Rule.SELF_REFERENCE), s -> claim(s.forge(), "supersedes itself",
                new Ref(X, RefRole.SUPERSEDES, null, null, null)).commit());
        // two facts of one commit supersede the claim: the second is refused at write time and flagged here
        add(cs, Rule.ALREADY_SUPERSEDED, s -> {
            Ref sup = new Ref(CLAIM, RefRole.SUPERSEDES, s.claimCommit(), s.claimBlob(), null);
            Fact a = new Fact(FactId.of("fix-a"), Kind.CLAIM, "The vote was seven to two.", null, List.of(sup));
            Fact b = new Fact(FactId.of("fix-b"), Kind.CLAIM, "The vote was eight to one.", null, List.of(sup));
            return put(put(s.forge(), a), b).trailers("alice", "assert", "Palimpsest-Fact", "fix-a", "assert",
                    "Palimpsest-Fact", "fix-b").commit();
        });
        // hand-written validity: a date where the canonical instant belongs, and an interval that ends before it starts
        add(cs, Rule.VALID_TIME_MALFORMED, s -> s.forge().put(path(X, Kind.CLAIM), "id: \"fact-x\"\nkind: \"claim\"\n"
                + "body: \"The breakwater opened.\"\nvalid_from: \"2021-03-01\"\n")
                .trailers("alice", "assert", "Palimpsest-Fact", X.value()).commit());
        add(cs, Rule.VALID_TIME_INVERTED, s -> s.forge().put(path(X, Kind.CLAIM), "id: \"fact-x\"\nkind: \"claim\"\n"
                + "body: \"The breakwater opened.\"\nvalid_from: \"2021-03-01T00:00:00Z\"\n"
                + "valid_until: \"2021-02-01T00:00:00Z\"\n")
                .trailers("alice", "assert", "Palimpsest-Fact", X.value()).commit());
        // a claim that says it closes the validity of claim-1, which is no claim (no triple)
        add(cs, Rule.INVALID_SUCCESSION, s -> put(s.forge(), new Fact(X, Kind.ENTITY_CLAIM, "The board approved it.",
                null, List.of(s.srcRef(RefRole.SOURCE, null), new Ref(CLAIM, RefRole.INVALIDATES, s.claimCommit(),
                        s.claimBlob(), null)), null, Grounding.triple("harbour board", "approved", "breakwater"))
                .withValidity(dev.palimpsest.model.Validity.startingAt(Instant.parse("2021-03-01T00:00:00Z"))))
                .trailers("alice", "assert", "Palimpsest-Fact", X.value()).commit());
        add(cs, Rule.FILE_SOURCE_REQUIRED, s -> fileRecord(s, "report.txt", true));
        add(cs, Rule.INVALID_FILE_RECORD, s -> fileRecord(s, "report.txt", false));
    }

    /**
     * A produced file's record and its content: with {@code metadata}, a good record citing no
     * source; without, a record citing its source whose body is not file metadata.
     */
    private static ObjectId fileRecord(Store s, String name, boolean metadata) throws Exception {
        byte[] bytes = "produced bytes".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String sha = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(bytes));
        FileMeta meta = new FileMeta(name, "text/plain", sha, bytes.length, null);
        FactId id = FileMeta.idOf(name);
        Fact f = metadata ? new Fact(id, Kind.of(FileMeta.KIND), meta.encode(), null, List.of())
                : new Fact(id, Kind.of(FileMeta.KIND), "not metadata", null, List.of(s.srcRef(RefRole.SOURCE, null)));
        Forge forge = put(s.forge(), f);
        if (metadata) {
            forge.put(meta.contentPath(), bytes);
        }
        return forge.trailers("alice", "assert", "Palimpsest-Fact", id.value()).commit();
    }

    private static Receipt members(Store s) {
        return new Receipt(List.of(List.of(new Pin(SRC, s.srcCommit(), s.srcBlob()))));
    }

    private static ObjectId layered(Store s, String id, Kind kind, Grounding g, Ref... refs) throws Exception {
        Fact f = new Fact(FactId.of(id), kind, "A layered fact.", null, List.of(refs), null, g);
        return put(s.forge(), f).trailers("alice", "assert", "Palimpsest-Fact", id).commit();
    }

    private static void add(List<Case> cs, Rule rule, Forging f) {
        cs.add(new Case(rule, Set.of(rule), f));
    }

    private static void add(List<Case> cs, Rule rule, Set<Rule> also, Forging f) {
        Set<Rule> all = new java.util.HashSet<>(also);
        all.add(rule);
        cs.add(new Case(rule, Set.copyOf(all), f));
    }

    private static TrustedKey aliceKey(Store s) throws Exception {
        return TrustedKey.of(OpenPgpKeys.publicRing(new SecretKeyFiles(s.home().dir()).load(ALICE)));
    }

    /** An assert of a new claim {@code fact-x} with these refs. */
    private static Forge claim(Forge f, String body, Ref... refs) {
        return put(f, new Fact(X, Kind.CLAIM, body, null, List.of(refs))).trailers("alice", "assert",
                "Palimpsest-Fact", X.value());
    }

    private static Forge put(Forge f, Fact fact) {
        return f.put(path(fact.id(), fact.kind()), FactCodec.encode(fact));
    }

    private static Fact fact(String id, Kind kind, String body) {
        return new Fact(FactId.of(id), kind, body, null, List.of());
    }

    static String path(FactId id, Kind kind) {
        return StorePaths.factPath(kind, id);
    }
}
