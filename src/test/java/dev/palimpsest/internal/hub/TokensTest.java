package dev.palimpsest.internal.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.NotFoundException;
import dev.palimpsest.model.RejectedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The token file: a token is shown once and only its hash kept, owner-only; it authenticates until
 * revoked or expired; a forged, truncated or other token's secret does not; concurrent additions
 * lose none; a file open to others is refused.
 */
class TokensTest {
    private static final ActorName ALICE = ActorName.of("alice");
    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");

    @TempDir
    Path home;

    @Test
    void aTokenIsKeptOnlyAsItsHashInAnOwnerOnlyFileAndAuthenticatesAsItsActor() throws Exception {
        Tokens tokens = new Tokens(home);
        Tokens.Issued issued = tokens.add(ALICE, true, Optional.empty(), NOW);
        assertThat(issued.secret()).matches("pal_[0-9a-f]{8}_[A-Za-z0-9_-]{43}");
        assertThat(issued.toString()).doesNotContain(issued.secret());
        String file = Files.readString(home.resolve(Tokens.FILE));
        assertThat(file).doesNotContain(issued.secret().substring(13)).contains(Tokens.sha256(issued.secret()));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve(Tokens.FILE))))
                .isEqualTo("rw-------");
        Tokens.Token t = new Tokens(home).authenticate(issued.secret(), NOW).orElseThrow();
        assertThat(t.actor()).isEqualTo(ALICE);
        assertThat(t.readOnly()).isTrue();
        assertThat(new Tokens(home).list()).extracting(Tokens.Token::id).containsExactly(issued.token().id());
    }

    @Test
    void aForgedTruncatedOrBorrowedSecretDoesNotAuthenticate() throws Exception {
        Tokens tokens = new Tokens(home);
        String a = tokens.add(ALICE, false, Optional.empty(), NOW).secret();
        String b = tokens.add(ActorName.of("bob"), false, Optional.empty(), NOW).secret();
        String idOfA = a.substring(0, 13);
        String secretOfB = b.substring(13);
        assertThat(tokens.authenticate(idOfA + secretOfB, NOW)).isEmpty();
        assertThat(tokens.authenticate(a.substring(0, a.length() - 1), NOW)).isEmpty();
        assertThat(tokens.authenticate(a + "x", NOW)).isEmpty();
        assertThat(tokens.authenticate("", NOW)).isEmpty();
        assertThat(tokens.authenticate(null, NOW)).isEmpty();
        assertThat(tokens.authenticate(a, NOW)).isPresent();
    }

    @Test
    void aRevokedOrExpiredTokenNoLongerAuthenticates() throws Exception {
        Tokens tokens = new Tokens(home);
        Tokens.Issued soon = tokens.add(ALICE, false, Optional.of(NOW.plusSeconds(60)), NOW);
        Tokens.Issued revoked = tokens.add(ALICE, false, Optional.empty(), NOW);
        assertThat(tokens.authenticate(soon.secret(), NOW.plusSeconds(59))).isPresent();
        assertThat(tokens.authenticate(soon.secret(), NOW.plusSeconds(60))).isEmpty();
        tokens.revoke(revoked.token().id());
        assertThat(tokens.authenticate(revoked.secret(), NOW)).isEmpty();
        assertThatThrownBy(() -> tokens.revoke(revoked.token().id())).isInstanceOf(NotFoundException.class)
                .hasMessageContaining(revoked.token().id());
        assertThatThrownBy(() -> tokens.add(ALICE, false, Optional.of(NOW), NOW)).isInstanceOf(RejectedException.class)
                .hasMessageContaining("--expires");
    }

    @Test
    void concurrentAdditionsLoseNoToken() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Tokens.Issued>> made = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            made.add(pool.submit(() -> new Tokens(home).add(ALICE, false, Optional.empty(), NOW)));
        }
        pool.shutdown();
        Tokens tokens = new Tokens(home);
        for (Future<Tokens.Issued> f : made) {
            assertThat(tokens.authenticate(f.get().secret(), NOW)).isPresent();
        }
        assertThat(tokens.list()).hasSize(40);
    }

    @Test
    void aTokenFileOpenToOthersIsRefused() throws Exception {
        Tokens tokens = new Tokens(home);
        String a = tokens.add(ALICE, false, Optional.empty(), NOW).secret();
        Files.setPosixFilePermissions(home.resolve(Tokens.FILE), PosixFilePermissions.fromString("rw-r--r--"));
        Tokens fresh = new Tokens(home);
        assertThatThrownBy(fresh::list).isInstanceOf(RejectedException.class).hasMessageContaining("chmod 600");
        assertThat(fresh.authenticate(a, NOW)).isEmpty();
    }
}
