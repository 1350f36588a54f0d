package dev.palimpsest.sync;

import static dev.palimpsest.sync.Replicas.BOB;
import static dev.palimpsest.sync.Replicas.CAROL;
import static dev.palimpsest.sync.ReplicationTest.assertFact;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.palimpsest.api.Store;
import dev.palimpsest.internal.crypto.CommitSigner;
import dev.palimpsest.internal.crypto.Signers;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.index.KnownChanges;
import dev.palimpsest.internal.index.PredicateIndex;
import dev.palimpsest.internal.write.Writer;
import dev.palimpsest.model.MergeRefusedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Violation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.transport.RefSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The merge commit a pull writes goes through the audit's merge rules before main moves. The
 * convergent merge's tree and trailers pass them by construction (the rule recomputes the same
 * merge), so the refused case signs the real merge with a signer that is not what it claims: the
 * key of another trusted actor, with a signature time ten minutes off. The checks that catch it are
 * the audit's own (identity, signature time), run on the staged merge commit.
 */
class MergeGateTest {
    @TempDir
    Path dir;

    private Replicas rs;
    private Path b;
    private ObjectId incoming;

    /** Replica a pushes a fact; replica b writes another and fetches the hub's main without merging. */
    @BeforeEach
    void divergent() throws Exception {
        rs = Replicas.create(dir);
        Path a = rs.cloneHub("a");
        b = rs.cloneHub("b");
        try (Store s = rs.open(a)) {
            assertFact(s, BOB, "x", "Written on replica a.");
            s.replication().push("origin", dev.palimpsest.model.TransferProgress.none());
        }
        try (Store s = rs.open(b)) {
            assertFact(s, CAROL, "y", "Written on replica b.");
        }
        try (Repository r = new FileRepositoryBuilder().setGitDir(b.toFile()).build(); Git g = new Git(r)) {
            g.fetch().setRemote(rs.hub.toString()).setRefSpecs(new RefSpec("refs/heads/main:refs/test/incoming")).call();
            incoming = r.resolve("refs/test/incoming");
        }
    }

    @Test
    void aMergeCommitThatBreaksTheAuditsMergeRulesIsRefusedListingEveryViolationAndNothingIsWritten()
            throws Exception {
        Signers home = new Signers(rs.home.dir());
        CommitSigner carol = home.signer(CAROL);
        CommitSigner bob = home.signer(BOB);
        CommitSigner posing = new CommitSigner() {
            @Override
            public String sign(byte[] payload, Instant time) {
                return bob.sign(payload, time.plus(Duration.ofMinutes(10)));
            }

            @Override
            public String fingerprint() {
                return carol.fingerprint();
            }

            @Override
            public String email() {
                return carol.email();
            }
        };
        Map<String, Long> before = files(b);
        try (GitRepo repo = GitRepo.open(b, false)) {
            ObjectId main = repo.head();
            Writer w = new Writer(repo, PredicateIndex.open(repo), Replicas.OPTIONS);
            MergeRefusedException e = catchThrowableOfType(() -> w.integrate(CAROL, posing, incoming, KnownChanges.NONE),
                    MergeRefusedException.class);
            assertThat(e).isNotNull();
            assertThat(e.violations()).extracting(Violation::rule)
                    .containsExactly(Rule.IDENTITY_MISMATCH, Rule.SIGNATURE_TIME);
            assertThat(e.violations()).allMatch(v -> v.subject().equals("merge of " + main.name() + " and "
                    + incoming.name()));
            assertThat(e.violations().get(0).message()).contains("key of actor bob");
            assertThat(repo.head()).isEqualTo(main);
        }
        assertThat(files(b)).isEqualTo(before);
        assertThat(Replicas.audit(b).violations()).isEmpty();
    }

    @Test
    void theSameMergeSignedByTheTrustedKeyPassesTheGateAndAuditsClean() throws Exception {
        try (GitRepo repo = GitRepo.open(b, false)) {
            ObjectId main = repo.head();
            Writer w = new Writer(repo, PredicateIndex.open(repo), Replicas.OPTIONS);
            Writer.Integration done = w.integrate(CAROL, new Signers(rs.home.dir()).signer(CAROL), incoming,
                    KnownChanges.NONE);
            assertThat(done.kind()).isEqualTo(Writer.Integration.Kind.MERGED);
            assertThat(repo.head()).isEqualTo(done.head()).isNotEqualTo(main);
        }
        assertThat(Replicas.audit(b).violations()).isEmpty();
    }

    /** Every object and ref file of the repository (packs, loose objects, refs) with its size. */
    private static Map<String, Long> files(Path gitDir) throws Exception {
        Map<String, Long> out = new TreeMap<>();
        for (String sub : List.of("objects", "refs", "packed-refs")) {
            Path p = gitDir.resolve(sub);
            if (!Files.exists(p)) {
                continue;
            }
            try (Stream<Path> all = Files.walk(p)) {
                for (Path f : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                    out.put(gitDir.relativize(f).toString(), Files.size(f));
                }
            }
        }
        return out;
    }
}
