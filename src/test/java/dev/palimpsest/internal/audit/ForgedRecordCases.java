package dev.palimpsest.internal.audit;

import static dev.palimpsest.api.TestStores.ALICE;

import dev.palimpsest.internal.crypto.OpenPgpKeys;
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
import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Rule;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyPacket;
import org.bouncycastle.crypto.generators.RSAKeyPairGenerator;
import org.bouncycastle.crypto.params.RSAKeyGenerationParameters;
import org.bouncycastle.openpgp.PGPKeyRingGenerator;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyPair;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * Forged histories for reports the rule book's one-case-per-rule set ({@link ForgedCases}) does
 * not reach: each way a key, key record, store configuration, fact file or retraction record can
 * be wrong, each way a retraction record can disagree with its commit, and malformed commit
 * headers. Each case's rule is reported by one site only, so the case fails if that report goes.
 */
final class ForgedRecordCases {
    private static final FactId GONE = FactId.of("gone-1");
    private static final String DAVE_ASC = "keys/dave.asc";
    private static final String DAVE_YAML = "keys/dave.yaml";
    /** A key-add trailer names both files of a key; a case that writes one is a trailer mismatch too. */
    private static final Set<Rule> TRAILER = Set.of(Rule.TRAILER_MISMATCH);
    /** No operation writes the configuration after init; a commit that does is unexplained too. */
    private static final Set<Rule> UNTOLD = Set.of(Rule.BAD_TRAILERS, Rule.UNEXPLAINED_CHANGE);

    private ForgedRecordCases() {}

    static List<ForgedCases.Case> all() {
        List<ForgedCases.Case> cs = new ArrayList<>();
        keys(cs);
        files(cs);
        retractions(cs);
        commits(cs);
        return cs;
    }

    private static void keys(List<ForgedCases.Case> cs) {
        add(cs, "a key file that does not parse", Rule.INVALID_KEY, TRAILER, s -> keyAdd(s)
                .put(DAVE_ASC, "not a key\n").commit());
        add(cs, "an RSA key", Rule.INVALID_KEY, Set.of(), s -> {
            TrustedKey rsa = TrustedKey.parse(rsaKey());
            return keyAdd(s).put(DAVE_ASC, rsa.armored()).put(DAVE_YAML, record("dave", rsa)).commit();
        });
        add(cs, "a key not in canonical armor", Rule.INVALID_KEY, Set.of(), s -> {
            TrustedKey dave = dave();
            return keyAdd(s).put(DAVE_ASC, dave.armored() + "\n").put(DAVE_YAML, record("dave", dave)).commit();
        });
        add(cs, "a key with no record", Rule.INVALID_KEY, TRAILER, s -> keyAdd(s)
                .put(DAVE_ASC, dave().armored()).commit());
        add(cs, "a stray file under keys/", Rule.UNEXPECTED_PATH,
                Set.of(Rule.TRAILER_MISMATCH, Rule.UNEXPLAINED_CHANGE), s -> keyAdd(s)
                .put("keys/dave.txt", "hello\n").commit());
        add(cs, "a key record not in canonical form", Rule.MALFORMED_FILE, Set.of(), s -> {
            TrustedKey dave = dave();
            return keyAdd(s).put(DAVE_ASC, dave.armored()).put(DAVE_YAML, "# a comment\n"
                    + new String(record("dave", dave), StandardCharsets.UTF_8)).commit();
        });
        add(cs, "a key record naming another actor", Rule.WRONG_PATH, Set.of(), s -> {
            TrustedKey dave = dave();
            return keyAdd(s).put(DAVE_ASC, dave.armored()).put(DAVE_YAML, record("bob", dave)).commit();
        });
        add(cs, "a key record with no key", Rule.INVALID_KEY, TRAILER, s -> keyAdd(s)
                .put(DAVE_YAML, record("dave", dave())).commit());
        add(cs, "a key record that does not parse", Rule.MALFORMED_FILE, Set.of(), s -> keyAdd(s)
                .put(DAVE_ASC, dave().armored()).put(DAVE_YAML, "name: [dave\n").commit());
    }

    private static void files(List<ForgedCases.Case> cs) {
        add(cs, "a configuration of another layout", Rule.MALFORMED_FILE, UNTOLD, s -> s.forge()
                .put(StorePaths.CONFIG, "format: 1\nlayout: flat\n").commit());
        add(cs, "a configuration not in canonical form", Rule.MALFORMED_FILE, UNTOLD, s -> s.forge()
                .put(StorePaths.CONFIG, "# a comment\n" + new String(FactCodec.encode(
                        dev.palimpsest.internal.yaml.StoreConfig.current()), StandardCharsets.UTF_8)).commit());
        add(cs, "a configuration that does not parse", Rule.MALFORMED_FILE, UNTOLD, s -> s.forge()
                .put(StorePaths.CONFIG, "format: [1\n").commit());
        add(cs, "a fact file that does not parse", Rule.MALFORMED_FILE, Set.of(), s -> s.forge()
                .put(ForgedCases.path(FactId.of("fact-x"), Kind.CLAIM), "id: [fact-x\n")
                .trailers("alice", "assert", "Palimpsest-Fact", "fact-x").commit());
        add(cs, "a file record without the file- prefix", Rule.WRONG_PATH, Set.of(), s -> {
            Fact f = new Fact(FactId.of("report"), Kind.of(FileMeta.KIND), new FileMeta("report.txt", "text/plain",
                    "0".repeat(64), 1, null).encode(), null, List.of(s.srcRef(dev.palimpsest.model.RefRole.SOURCE, null)));
            return s.forge().put(ForgedCases.path(f.id(), f.kind()), FactCodec.encode(f))
                    .trailers("alice", "assert", "Palimpsest-Fact", "report").commit();
        });
        add(cs, "a retraction record not in canonical form", Rule.MALFORMED_FILE, Set.of(), s -> s.forge()
                .remove(ForgedCases.path(ForgedCases.SRC, Kind.SOURCE))
                .put(StorePaths.retractionPath(ForgedCases.SRC), "# a comment\n" + new String(retraction(
                        ForgedCases.SRC, s.srcCommit(), s.srcBlob(), ALICE), StandardCharsets.UTF_8))
                .trailers("alice", "retract", "Palimpsest-Fact", ForgedCases.SRC.value()).commit());
    }

    private static void retractions(List<ForgedCases.Case> cs) {
        add(cs, "a retraction record removed, the fact not asserted again", Rule.RETRACTION_INCONSISTENT, TRAILER,
                s -> {
                    try (dev.palimpsest.api.Store st = ForgedCases.open(s)) {
                        var tx = st.begin(ALICE);
                        tx.retract(ForgedCases.SRC, "withdrawn");
                        tx.commit();
                    }
                    return s.forge().remove(StorePaths.retractionPath(ForgedCases.SRC))
                            .trailers("alice", "assert", "Palimpsest-Fact", ForgedCases.SRC.value()).commit();
                });
        add(cs, "a retraction record with no file removed", Rule.RETRACTION_INCONSISTENT, TRAILER, s -> s.forge()
                .put(StorePaths.retractionPath(GONE), retraction(GONE, s.srcCommit(), s.srcBlob(), ALICE))
                .trailers("alice", "retract", "Palimpsest-Fact", GONE.value()).commit());
        add(cs, "a retraction record pinning another blob", Rule.RETRACTION_INCONSISTENT, Set.of(), s ->
                retract(s, retraction(ForgedCases.SRC, s.srcCommit(), s.claimBlob(), ALICE)));
        add(cs, "a retraction record pinning an unknown commit", Rule.RETRACTION_INCONSISTENT, Set.of(), s ->
                retract(s, retraction(ForgedCases.SRC, CommitId.of("1234567890123456789012345678901234567890"),
                        s.srcBlob(), ALICE)));
        add(cs, "a retraction record naming another actor", Rule.RETRACTION_INCONSISTENT, Set.of(), s ->
                retract(s, retraction(ForgedCases.SRC, s.srcCommit(), s.srcBlob(), ActorName.of("bob"))));
    }

    private static void commits(List<ForgedCases.Case> cs) {
        // git fsck --strict's missingSpaceBeforeEmail: the object itself is refused before any rule reads it
        add(cs, "a commit with a malformed author header", Rule.MALFORMED_OBJECT, Set.of(), s -> rewritten(s,
                raw -> raw.replaceFirst("(?m)^author alice <", "author alice<")));
        add(cs, "a commit with two gpgsig headers", Rule.MALFORMED_SIGNATURE, Set.of(), s -> rewritten(s, raw -> {
            int start = raw.indexOf("gpgsig ");
            int end = raw.indexOf("-----END PGP SIGNATURE-----", start) + "-----END PGP SIGNATURE-----\n".length();
            return raw.substring(0, end) + raw.substring(start, end) + raw.substring(end);
        }));
        add(cs, "a commit whose tree is missing", Rule.UNREADABLE, Set.of(), s -> s.forge()
                .tree(ObjectId.fromString("1234567890123456789012345678901234567890"))
                .trailers("alice", "assert", "Palimpsest-Fact", "fact-x").commit());
        add(cs, "a pin to a malformed commit", Rule.MALFORMED_OBJECT, Set.of(), s -> {
            byte[] main = raw(s, s.main());
            ObjectId bad = insert(s, new String(main, StandardCharsets.UTF_8)
                    .replaceFirst("(?m)^author [^\n]*\n", "").getBytes(StandardCharsets.UTF_8));
            Fact f = new Fact(FactId.of("fact-x"), Kind.CLAIM, "pins a malformed commit", null, List.of(
                    new dev.palimpsest.model.Ref(ForgedCases.SRC, dev.palimpsest.model.RefRole.of("cites"),
                            CommitId.of(bad.name()), s.srcBlob(), null)));
            return s.forge().put(ForgedCases.path(f.id(), f.kind()), FactCodec.encode(f))
                    .trailers("alice", "assert", "Palimpsest-Fact", "fact-x").commit();
        });
        add(cs, "a pin to a commit before the fact existed", Rule.PIN_MISMATCH, Set.of(), s -> {
            ObjectId before = parentOf(s, ObjectId.fromString(s.srcCommit().hex()));
            Fact f = new Fact(FactId.of("fact-x"), Kind.CLAIM, "pins a commit before its source", null, List.of(
                    new dev.palimpsest.model.Ref(ForgedCases.SRC, dev.palimpsest.model.RefRole.of("cites"),
                            CommitId.of(before.name()), s.srcBlob(), null)));
            return s.forge().put(ForgedCases.path(f.id(), f.kind()), FactCodec.encode(f))
                    .trailers("alice", "assert", "Palimpsest-Fact", "fact-x").commit();
        });
        add(cs, "an author e-mail not the key's", Rule.IDENTITY_MISMATCH, Set.of(), s -> s.forge()
                .author("alice", "someone@else").put(ForgedCases.path(FactId.of("fact-x"), Kind.CLAIM),
                        FactCodec.encode(new Fact(FactId.of("fact-x"), Kind.CLAIM, "by another address", null,
                                List.of()))).trailers("alice", "assert", "Palimpsest-Fact", "fact-x").commit());
    }

    /** A signed assert of {@code fact-x}, its raw commit object edited by {@code edit}, forced onto main. */
    private static ObjectId rewritten(ForgedCases.Store s, UnaryOperator<String> edit) throws Exception {
        ObjectId signed = s.forge().put(ForgedCases.path(FactId.of("fact-x"), Kind.CLAIM), FactCodec.encode(
                new Fact(FactId.of("fact-x"), Kind.CLAIM, "An edited commit.", null, List.of())))
                .trailers("alice", "assert", "Palimpsest-Fact", "fact-x").commit(false);
        try (Repository r = new FileRepositoryBuilder().setGitDir(s.gitDir().toFile()).setMustExist(true).build();
                ObjectInserter ins = r.newObjectInserter()) {
            String raw = new String(r.open(signed).getBytes(), StandardCharsets.UTF_8);
            String edited = edit.apply(raw);
            if (edited.equals(raw)) {
                throw new IllegalStateException("the edit changed nothing");
            }
            ObjectId id = ins.insert(Constants.OBJ_COMMIT, edited.getBytes(StandardCharsets.UTF_8));
            ins.flush();
            RefUpdate ru = r.updateRef(Constants.R_HEADS + "main");
            ru.setNewObjectId(id);
            ru.setForceUpdate(true);
            if (ru.update() != RefUpdate.Result.FORCED) {
                throw new IOException("cannot move main");
            }
            return id;
        }
    }

    private static byte[] raw(ForgedCases.Store s, ObjectId id) throws IOException {
        try (Repository r = new FileRepositoryBuilder().setGitDir(s.gitDir().toFile()).setMustExist(true).build()) {
            return r.open(id).getBytes();
        }
    }

    private static ObjectId parentOf(ForgedCases.Store s, ObjectId commit) throws IOException {
        try (Repository r = new FileRepositoryBuilder().setGitDir(s.gitDir().toFile()).setMustExist(true).build();
                org.eclipse.jgit.revwalk.RevWalk w = new org.eclipse.jgit.revwalk.RevWalk(r)) {
            return w.parseCommit(commit).getParent(0).copy();
        }
    }

    /** Inserts {@code bytes} as a commit object, unchecked, beside main's history. */
    private static ObjectId insert(ForgedCases.Store s, byte[] bytes) throws IOException {
        try (Repository r = new FileRepositoryBuilder().setGitDir(s.gitDir().toFile()).setMustExist(true).build();
                ObjectInserter ins = r.newObjectInserter()) {
            ObjectId id = ins.insert(Constants.OBJ_COMMIT, bytes);
            ins.flush();
            return id;
        }
    }

    private static ObjectId retract(ForgedCases.Store s, byte[] record) throws Exception {
        return s.forge().remove(ForgedCases.path(ForgedCases.SRC, Kind.SOURCE))
                .put(StorePaths.retractionPath(ForgedCases.SRC), record)
                .trailers("alice", "retract", "Palimpsest-Fact", ForgedCases.SRC.value()).commit();
    }

    private static byte[] retraction(FactId id, CommitId commit, BlobId blob, ActorName actor) {
        return FactCodec.encode(new RetractionRecord(new FactVersion(id, commit, blob), "withdrawn", actor));
    }

    private static Forge keyAdd(ForgedCases.Store s) {
        return s.forge().trailers("alice", "key-add", "Palimpsest-Key", "dave");
    }

    private static TrustedKey dave() throws Exception {
        return TrustedKey.of(OpenPgpKeys.publicRing(OpenPgpKeys.generate("dave", "d@x", new Date())));
    }

    private static byte[] record(String actor, TrustedKey key) {
        return KeyCodec.encode(new ActorKey(ActorName.of(actor), KeyRole.AGENT, key.fingerprint()));
    }

    private static String rsaKey() throws Exception {
        RSAKeyPairGenerator g = new RSAKeyPairGenerator();
        g.init(new RSAKeyGenerationParameters(BigInteger.valueOf(0x10001), new SecureRandom(), 1024, 12));
        BcPGPKeyPair pair = new BcPGPKeyPair(PublicKeyPacket.VERSION_4, PublicKeyAlgorithmTags.RSA_GENERAL,
                g.generateKeyPair(), new Date());
        PGPKeyRingGenerator rings = new PGPKeyRingGenerator(PGPSignature.POSITIVE_CERTIFICATION, pair, "dave <d@x>",
                new BcPGPDigestCalculatorProvider().get(HashAlgorithmTags.SHA1), null, null,
                new BcPGPContentSignerBuilder(PublicKeyAlgorithmTags.RSA_GENERAL, HashAlgorithmTags.SHA256), null);
        return OpenPgpKeys.armor(rings.generatePublicKeyRing());
    }

    private static void add(List<ForgedCases.Case> cs, String name, Rule rule, Set<Rule> also,
            ForgedCases.Forging f) {
        Set<Rule> all = new java.util.HashSet<>(also);
        all.add(rule);
        cs.add(new ForgedCases.Case(rule, Set.copyOf(all), f, name));
    }
}
