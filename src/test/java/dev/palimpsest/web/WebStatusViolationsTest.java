package dev.palimpsest.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.RefSpec;
import java.util.List;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page over a history that fails the audit: a commit forged onto main with plain git
 * plumbing (unsigned) is listed by the background audit with its rule and a link to its commit.
 */
class WebStatusViolationsTest {
    @TempDir
    Path tmp;

    @Test
    void anUnsignedCommitOnMainIsListedByTheStatusPagesAuditWithItsRuleAndCommit() throws Exception {
        try (WebFixture f = new WebFixture(tmp)) {
            ObjectId forged;
            try (Repository repo = new FileRepositoryBuilder().setGitDir(f.store.gitDir().toFile()).build();
                    ObjectInserter ins = repo.newObjectInserter();
                    RevWalk walk = new RevWalk(repo)) {
                ObjectId head = repo.resolve("refs/heads/main");
                CommitBuilder c = new CommitBuilder();
                c.setTreeId(walk.parseCommit(head).getTree());
                c.setParentId(head);
                PersonIdent who = new PersonIdent("alice", "alice@palimpsest.local");
                c.setAuthor(who);
                c.setCommitter(who);
                c.setMessage("forged\n\nPalimpsest-Actor: alice\n");
                forged = ins.insert(c);
                ins.flush();
                RefUpdate u = repo.updateRef("refs/heads/main");
                u.setExpectedOldObjectId(head);
                u.setNewObjectId(forged);
                assertThat(u.update()).isIn(RefUpdate.Result.FAST_FORWARD, RefUpdate.Result.FORCED);
            }
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            String basic = Base64.getEncoder().encodeToString(("viewer:" + f.token).getBytes(StandardCharsets.UTF_8));
            long deadline = System.nanoTime() + 60_000_000_000L;
            String html = "";
            while (System.nanoTime() < deadline) {
                html = http.send(HttpRequest.newBuilder(URI.create(f.url("/status"))).header("Authorization",
                        "Basic " + basic).build(), HttpResponse.BodyHandlers.ofString()).body();
                if (html.contains("audit-violations") && html.contains(forged.abbreviate(7).name())) {
                    break;
                }
                Thread.sleep(200);
            }
            assertThat(html).contains("class=\"audit audit-violations\">", "class=\"violations\"")
                    .containsPattern("<code class=\"rule\">unsigned</code> at <a href=\"/\\?at=" + forged.name()
                            + "\" class=\"commit\">" + forged.abbreviate(7).name() + "</a>");
        }
    }

    @Test
    void theReviewQueueListsAFactWhoseCitedVersionWasRevisedButNotTheSuperseder() throws Exception {
        try (WebFixture f = new WebFixture(tmp)) {
            var tx = f.store.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "the launch slipped, says the note").id(FactId.of("reader"))
                    .refs(RefSpec.cites(FactId.of("note"))));
            tx.commit();
            f.store.begin(TestStores.ALICE).revise(FactId.of("note"), "the minutes say the launch slipped twice", List.of())
                    .commit();
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            String basic = Base64.getEncoder().encodeToString(("viewer:" + f.token).getBytes(StandardCharsets.UTF_8));
            String html = http.send(HttpRequest.newBuilder(URI.create(f.url("/status"))).header("Authorization",
                    "Basic " + basic).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertThat(html).containsPattern("href=\"/facts/reader\\?at=[0-9a-f]{40}\" class=\"fact\">reader</a> "
                    + "<span class=\"kind\">claim</span> <span class=\"status\">stale-refs</span>: cites note revised")
                    .doesNotContain(">tz-new<");
        }
    }

    @Test
    void afterACleanAuditTheNextAuditsOnlyTheNewCommitsAndCarriesTheEarlierOnesOver() throws Exception {
        try (WebFixture f = new WebFixture(tmp)) {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            String basic = Base64.getEncoder().encodeToString(("viewer:" + f.token).getBytes(StandardCharsets.UTF_8));
            java.util.function.Supplier<String> status = () -> {
                try {
                    return http.send(HttpRequest.newBuilder(URI.create(f.url("/status"))).header("Authorization",
                            "Basic " + basic).build(), HttpResponse.BodyHandlers.ofString()).body();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            };
            String first = awaitClean(status);
            var before = f.store.head();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\((\\d+) commits, (\\d+) signatures").matcher(first);
            assertThat(m.find()).as(first).isTrue();
            int commits = Integer.parseInt(m.group(1));
            assertThat(first).doesNotContain("audit-since");

            var tx = f.store.begin(TestStores.ALICE);
            tx.assertFact(FactSpec.of(Kind.CLAIM, "one more claim").id(FactId.of("one-more")));
            var after = tx.commit().id();
            status.get(); // starts the audit of the new tip
            String second = awaitClean(status);
            assertThat(second).contains("up to <a href=\"/?at=" + after.hex() + "\"")
                    .contains("<a href=\"/?at=" + before.hex() + "\" class=\"commit audit-since\">")
                    .contains("(" + (commits + 1) + " commits, " + (commits + 1) + " signatures");
        }
    }

    private static String awaitClean(java.util.function.Supplier<String> status) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        String html = status.get();
        while (!html.contains("audit-clean") && System.nanoTime() < deadline) {
            Thread.sleep(100);
            html = status.get();
        }
        assertThat(html).contains("audit-clean");
        return html;
    }
}
