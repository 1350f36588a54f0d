package dev.palimpsest.api;

import dev.palimpsest.model.KeyRole;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.AuditProgress;
import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.internal.crypto.OpenPgpKeys;
import dev.palimpsest.model.ActorKey;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Trailer;
import dev.palimpsest.model.Violation;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Date;
import java.util.List;
import java.util.Set;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Trust is temporal: keys are added and revoked by commits signed with already-trusted keys. */
class KeysTest {
    private static final ActorName BOB = ActorName.of("bob");

    @TempDir
    Path dir;

    @Test
    void anAddedKeyMaySignFromItsCommitOnAndIsListedThere() throws Exception {
        try (Store s = TestStores.init(dir)) {
            String bobKey = home().generateKey(BOB, "bob@example.org");
            CommitId before = s.head();
            assertThatThrownBy(() -> write(s, BOB)).isInstanceOf(RejectedException.class)
                    .satisfies(e -> assertThat(rules(e)).containsExactly("unknown-actor"));
            CommitId added = s.begin(ALICE).addKey(BOB, bobKey, KeyRole.AGENT).commit().id();
            write(s, BOB);
            String fingerprint = OpenPgpKeys.fingerprint(OpenPgpKeys.parsePublic(bobKey).getPublicKey());
            assertThat(s.keys(before)).extracting(ActorKey::name).containsExactly(ALICE);
            assertThat(s.keys(added)).containsExactly(s.keys(before).get(0),
                    new ActorKey(BOB, KeyRole.AGENT, fingerprint));
            assertThat(s.keys(before).get(0).role()).isEqualTo(KeyRole.HUMAN);
            assertThat(s.log(0).get(1).trailers()).containsExactly(new Trailer("Palimpsest-Actor", "alice"),
                    new Trailer("Palimpsest-Op", "key-add"), new Trailer("Palimpsest-Key", "bob"));
            assertThat(s.publicKey(BOB, added).orElseThrow())
                    .isEqualTo(OpenPgpKeys.armor(OpenPgpKeys.parsePublic(bobKey)));
        }
    }

    @Test
    void aRevokedActorCannotWriteAndItsEarlierCommitsStayValid() throws Exception {
        try (Store s = TestStores.init(dir)) {
            s.begin(ALICE).addKey(BOB, home().generateKey(BOB), KeyRole.AGENT).commit();
            write(s, BOB);
            CommitId revoked = s.begin(ALICE).revokeKey(BOB).commit().id();
            assertThatThrownBy(() -> write(s, BOB)).isInstanceOf(RejectedException.class)
                    .satisfies(e -> assertThat(rules(e)).containsExactly("unknown-actor"));
            assertThat(s.keys(revoked)).extracting(ActorKey::name).containsExactly(ALICE);
            assertThat(s.log(1).get(0).trailers()).contains(new Trailer("Palimpsest-Op", "key-revoke"),
                    new Trailer("Palimpsest-Key", "bob"));
        }
        try (Auditor a = Auditor.open(dir.resolve("store.git"))) {
            assertThat(a.audit(AuditProgress.none()).violations()).isEmpty();
        }
    }

    @Test
    void anActorMayRevokeItsOwnKeyOnlyWhileAnotherRemains() throws Exception {
        try (Store s = TestStores.init(dir)) {
            Set<String> start = TestStores.durableState(s.gitDir());
            assertThatThrownBy(() -> s.begin(ALICE).revokeKey(ALICE).commit())
                    .satisfies(e -> assertThat(rules(e)).containsExactly("last-key"));
            assertThat(TestStores.durableState(s.gitDir())).isEqualTo(start);
            s.begin(ALICE).addKey(BOB, home().generateKey(BOB), KeyRole.HUMAN).commit();
            s.begin(ALICE).revokeKey(ALICE).commit();
            assertThatThrownBy(() -> write(s, ALICE)).isInstanceOf(RejectedException.class);
            write(s, BOB);
            assertThatThrownBy(() -> s.begin(BOB).revokeKey(BOB).commit())
                    .satisfies(e -> assertThat(rules(e)).containsExactly("last-key"));
        }
    }

    @Test
    void invalidKeyChangesAreRejectedWithEveryViolationAndWriteNothing() throws Exception {
        try (Store s = TestStores.init(dir)) {
            String bobKey = home().generateKey(BOB);
            String aliceKey = s.publicKey(ALICE, s.head()).orElseThrow();
            Set<String> start = TestStores.durableState(s.gitDir());
            Transaction t = s.begin(ALICE);
            t.addKey(ActorName.of("alice"), bobKey, KeyRole.AGENT);
            t.addKey(ActorName.of("junk"), "not a key", KeyRole.AGENT);
            t.addKey(ActorName.of("rsa"), rsaKey(), KeyRole.AGENT);
            t.addKey(ActorName.of("twin"), aliceKey, KeyRole.AGENT);
            t.revokeKey(ActorName.of("nobody"));
            assertThatThrownBy(t::commit).isInstanceOf(RejectedException.class)
                    .satisfies(e -> assertThat(rules(e)).containsExactly("key-exists", "invalid-key", "invalid-key",
                            "key-in-use", "not-found"));
            assertThat(TestStores.durableState(s.gitDir())).isEqualTo(start);
        }
    }

    private KeyHome home() {
        return new KeyHome(dir.resolve("home"));
    }

    private static void write(Store s, ActorName actor) throws Exception {
        Transaction t = s.begin(actor);
        t.assertFact(FactSpec.of(Kind.CLAIM, "written by " + actor));
        t.commit();
    }

    private static List<String> rules(Throwable e) {
        return ((RejectedException) e).violations().stream().map(v -> v.rule().id()).toList();
    }

    private static String rsaKey() throws Exception {
        RSAKeyPairGenerator g = new RSAKeyPairGenerator();
        g.init(new RSAKeyGenerationParameters(BigInteger.valueOf(0x10001), new SecureRandom(), 1024, 12));
        BcPGPKeyPair pair = new BcPGPKeyPair(PublicKeyPacket.VERSION_4, PublicKeyAlgorithmTags.RSA_GENERAL,
                g.generateKeyPair(), new Date());
        PGPKeyRingGenerator rings = new PGPKeyRingGenerator(PGPSignature.POSITIVE_CERTIFICATION, pair, "rsa <r@x>",
                new BcPGPDigestCalculatorProvider().get(HashAlgorithmTags.SHA1), null, null,
                new BcPGPContentSignerBuilder(PublicKeyAlgorithmTags.RSA_GENERAL, HashAlgorithmTags.SHA256), null);
        return OpenPgpKeys.armor(rings.generatePublicKeyRing());
    }
}
