package dev.palimpsest.demo;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.FactSpec;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.palimpsest.model.CommitResult;
import dev.palimpsest.api.KeyHome;
import dev.palimpsest.model.PalimpsestException;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Verdict;
import dev.palimpsest.api.Judges;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.Verification;
import dev.palimpsest.api.Transaction;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.FactRead;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.Ref;
import dev.palimpsest.model.RefSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Builds a demo store in {@code DIR/store.git} (keys in {@code DIR/home}) from the corpus bundled
 * at {@code examples/demo-corpus.yaml}, narrating each step, then the receipts story of
 * {@code examples/receipts-corpus.yaml} in {@code DIR/receipts.git}. A folder left by an earlier demo
 * (marked by {@code DIR/.palimpsest-demo}) is replaced; any other non-empty folder is refused.
 */
public final class Demo {
    static final String MARKER = ".palimpsest-demo";

    record Cite(String id, String quote) {}

    record Source(String id, String body) {}

    record Claim(String id, String body, Double confidence, List<Cite> cites) {}

    record Revision(String id, String body) {}

    record Retraction(String id, String reason) {}

    record Corpus(String actor, List<Source> sources, List<Claim> claims, List<Revision> revisions,
            List<Retraction> retractions) {}

    private final PrintWriter out;

    public Demo(PrintWriter out) {
        this.out = out;
    }

    public static Corpus loadCorpus() throws IOException {
        try (InputStream in = Demo.class.getResourceAsStream("/examples/demo-corpus.yaml")) {
            if (in == null) {
                throw new IOException("the demo corpus examples/demo-corpus.yaml is missing from the jar");
            }
            return new YAMLMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(in, Corpus.class);
        }
    }

    /** Runs the demo in {@code dir}; returns the store's git directory. */
    public Path run(Path dir) throws IOException, PalimpsestException {
        prepare(dir);
        Corpus corpus = loadCorpus();
        Path gitDir = dir.resolve("store.git");
        KeyHome home = new KeyHome(dir.resolve("home"));
        ActorName actor = ActorName.of(corpus.actor());
        out.println("Palimpsest demo in " + dir.toAbsolutePath());
        try (Store store = Store.initializer(gitDir).home(home).actor(actor).create()) {
            out.println("1. init: genesis commit " + store.head().abbreviated() + " signed by '" + actor
                    + "' (secret key in " + home.dir() + ", public key at keys/" + actor + ".asc)");
            Transaction tx = store.begin(actor);
            for (Source s : corpus.sources()) {
                tx.assertFact(FactSpec.of(Kind.SOURCE, s.body()).id(FactId.of(s.id())));
            }
            CommitResult sources = tx.commit();
            out.println("2. ingest: " + sources.written().size() + " sources in one commit "
                    + sources.id().abbreviated() + ": " + sources.written());
            for (Claim c : corpus.claims()) {
                List<RefSpec> refs = new ArrayList<>();
                for (Cite cite : c.cites()) {
                    refs.add(RefSpec.cites(FactId.of(cite.id())).withQuote(cite.quote()));
                }
                Transaction t = store.begin(actor);
                FactSpec spec = FactSpec.of(Kind.CLAIM, c.body()).id(FactId.of(c.id())).refs(refs);
                t.assertFact(c.confidence() == null ? spec : spec.confidence(c.confidence()));
                CommitResult r = t.commit();
                out.println("3. assert " + c.id() + " at " + r.id().abbreviated() + ", citing "
                        + c.cites().stream().map(Cite::id).toList() + " with verbatim quotes, pinned to their versions");
            }
            narrateReview(store, corpus.claims().get(0));
            CommitId beforeRevision = store.head();
            for (Revision r : corpus.revisions()) {
                CommitResult res = store.begin(actor).revise(FactId.of(r.id()), r.body(), List.of()).commit();
                out.println("5. revise " + r.id() + " at " + res.id().abbreviated()
                        + ": a new version; the old one stays readable at " + beforeRevision.abbreviated());
            }
            for (Retraction r : corpus.retractions()) {
                CommitResult res = store.begin(actor).retract(FactId.of(r.id()), r.reason()).commit();
                out.println("6. retract " + r.id() + " at " + res.id().abbreviated() + ": \"" + r.reason() + "\"");
            }
            narrateReads(store, corpus, beforeRevision);
            printGitCommands(gitDir, actor);
        }
        new ReceiptsDemo(out).run(dir, home, actor);
        return gitDir;
    }

    private void narrateReads(Store store, Corpus corpus, CommitId beforeRevision) throws PalimpsestException {
        out.println();
        out.println("What the store answers now (" + store.head().abbreviated() + "):");
        for (Retraction r : corpus.retractions()) {
            FactRead read = store.read(FactId.of(r.id()), store.head());
            if (read instanceof FactRead.Retracted ret) {
                out.println("  show " + r.id() + "            -> not found: retracted at "
                        + ret.retractedAt().abbreviated() + " (" + ret.reason() + ")");
                out.println("  show " + r.id() + " --fallback -> last valid version "
                        + ret.lastVersion().commit().abbreviated() + ", labelled retracted");
            }
        }
        for (Claim c : corpus.claims()) {
            FactRead read = store.read(FactId.of(c.id()), store.head());
            if (read instanceof FactRead.Found f) {
                for (Ref ref : f.fact().refs()) {
                    boolean live = store.factLiveAtCommit(ref.id(), store.head());
                    out.println("  " + c.id() + " cites " + ref.id() + " pinned at "
                            + ref.commit().abbreviated() + (live ? " (still live)"
                                    : " (retracted since: the citation still resolves to what was believed)"));
                }
            }
        }
        for (Revision r : corpus.revisions()) {
            FactRead old = store.read(FactId.of(r.id()), beforeRevision);
            if (old instanceof FactRead.Found f) {
                out.println("  " + r.id() + " as of " + beforeRevision.abbreviated() + ": \"" + f.fact().body() + "\"");
            }
        }
    }

    /**
     * The fail-closed reviewer with a scripted judge: a fabricated quote never reaches it, a
     * supported claim is accepted, and a reply that is not the JSON boolean {@code true} fails closed.
     */
    private void narrateReview(Store store, Claim claim) throws PalimpsestException {
        Cite cite = claim.cites().get(0);
        FactId source = FactId.of(cite.id());
        Judge reviewer = Judges.scripted("demo-reviewer", List.of("{\"supported\": true}", "{\"supported\": \"yes\"}"));
        Verification v = store.verification();
        out.println("4. verify (scripted reviewer): anchor first, then one message, fail closed");
        review("a fabricated quote", v.verify(reviewer, source, store.head(), "ERK inhibition cured the tumours",
                claim.body()));
        review("the real quote", v.verify(reviewer, source, store.head(), cite.quote(), claim.body()));
        review("a reply of \"yes\"", v.verify(reviewer, source, store.head(), cite.quote(), claim.body()));
    }

    private void review(String what, Verdict v) {
        out.println("   " + what + ": accepted=" + v.accepted() + ", model_accepted=" + v.modelAccepted()
                + (v.reason() == null ? "" : " (" + v.reason() + ")"));
    }

    private void printGitCommands(Path gitDir, ActorName actor) {
        String g = "git --git-dir " + gitDir.toAbsolutePath();
        out.println();
        out.println("Inspect it with plain git and gpg:");
        out.println("  " + g + " log --format='%h %an %s%n%(trailers)'");
        out.println("  " + g + " show main:keys/" + actor + ".asc | gpg --import");
        out.println("  " + g + " log --show-signature -1");
        out.println("  " + g + " ls-tree -r --name-only main");
        out.println("  " + g + " fsck --strict");
    }

    private static void prepare(Path dir) throws IOException, RejectedException {
        if (Files.exists(dir)) {
            boolean empty;
            try (Stream<Path> s = Files.list(dir)) {
                empty = s.findAny().isEmpty();
            }
            if (!empty && !Files.exists(dir.resolve(MARKER))) {
                throw new RejectedException(Rule.DEMO_DIR_NOT_EMPTY, "demo folder " + dir,
                        "exists, is not empty and was not made by the demo; name another folder");
            }
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    if (!p.equals(dir)) {
                        Files.delete(p);
                    }
                }
            }
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(MARKER), "made by palimpsest demo; safe to delete\n");
    }
}
