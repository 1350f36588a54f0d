package dev.palimpsest.cli;

import dev.palimpsest.model.CommitResult;
import dev.palimpsest.model.EntailResult;
import dev.palimpsest.model.IngestResult;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.ArtifactReceipts;
import dev.palimpsest.model.CleanupPlan;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.LayerCounts;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.ReceiptReport;
import dev.palimpsest.model.ReviewItem;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Receipts: ingest, receipts, retract-source, revoke-relation, review, entail. */
final class ReceiptCommands {
    private ReceiptCommands() {}

    @Command(name = "ingest", description = "Land a batch (YAML or JSON) of sources, assertions, claims, artifacts (with receipts) and axioms as one commit.")
    static final class Ingest extends Context implements Callable<Integer> {
        @Mixin
        Shared.Actor actor;

        @Option(names = "--file", required = true, paramLabel = "F.yaml|F.json", description = "The batch (docs/loading.md).")
        Path file;

        @Option(names = "--strict", description = "Reject receipts over 8 bundles instead of keeping the smallest 8.")
        boolean strict;

        @Override
        public Integer call() throws Exception {
            byte[] yaml = TextInput.bytes("--file " + file, file, Limits.MAX_INGEST_FILE, home());
            try (Store store = open()) {
                IngestResult r = store.receipts().ingest(Parse.actor("--actor", actor.name), yaml, strict);
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("commit", r.commit().id().hex());
                    m.put("kinds", r.kinds());
                    m.put("configured", r.configured());
                    m.put("truncated", ids(r.truncated()));
                    printJson(m);
                } else {
                    out().println("ingested " + r.kinds() + (r.configured() ? " and config" : "") + " in "
                            + r.commit().id().hex());
                    if (!r.truncated().isEmpty()) {
                        out().println("receipts truncated to the smallest 8 bundles: " + r.truncated());
                    }
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "receipts", description = "Alive, dead, touched and pending artifacts per layer at a commit; with"
            + " ID, that fact's receipts there: each bundle's members with their pins and whether they are alive.")
    static final class Report extends Context implements Callable<Integer> {
        @Mixin
        Shared.At at;

        @Parameters(index = "0", arity = "0..1", paramLabel = "ID", description = "A fact whose receipts to show.")
        String id;

        @Override
        public Integer call() throws Exception {
            FactId fid = Parse.fact("ID", id);
            try (Store store = open()) {
                if (fid != null) {
                    ArtifactReceipts a = store.receipts().receiptsOf(fid, at(store, at));
                    if (json()) {
                        printJson(dev.palimpsest.wire.ReceiptsWire.of(a));
                    } else {
                        printReceipts(a);
                    }
                    return Main.OK;
                }
                ReceiptReport r = store.receipts().report(at(store, at));
                if (json()) {
                    Map<String, Object> layers = new LinkedHashMap<>();
                    for (Layer layer : Layer.values()) {
                        LayerCounts c = r.layers().get(layer);
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("alive", c.alive());
                        m.put("dead", c.dead());
                        m.put("touched", c.touched());
                        m.put("pending", c.pending());
                        layers.put(layer.value(), m);
                    }
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("at", r.at().hex());
                    m.put("policy", r.policy().value());
                    m.put("layers", layers);
                    printJson(m);
                } else {
                    out().println("receipts at " + r.at().hex() + " (flat summaries: " + r.policy() + ")");
                    out().printf("%-10s %8s %8s %8s %8s%n", "layer", "alive", "dead", "touched", "pending");
                    for (Layer layer : Layer.values()) {
                        LayerCounts c = r.layers().get(layer);
                        out().printf("%-10s %8d %8d %8d %8d%n", layer, c.alive(), c.dead(), c.touched(), c.pending());
                    }
                }
            }
            return Main.OK;
        }

        private void printReceipts(ArtifactReceipts a) {
            out().println(a.id() + " (" + a.kind() + ") at " + a.at().abbreviated() + ": " + (!a.live() ? "retracted"
                    : a.alive() ? "alive" : "dead") + (a.flat() ? ", flat receipt" : ""));
            int i = 0;
            for (List<ArtifactReceipts.Member> b : a.receipt()) {
                out().println("  bundle " + ++i + ": " + members(b));
            }
            int n = 0;
            for (ArtifactReceipts.SentenceReceipt sr : a.sentences()) {
                out().println("  sentence " + ++n + " (" + (sr.alive() ? "alive" : "dead") + "): "
                        + Render.safe(sr.text()));
                int j = 0;
                for (List<ArtifactReceipts.Member> b : sr.bundles()) {
                    out().println("    bundle " + ++j + ": " + members(b));
                }
            }
            if (a.receipt().isEmpty() && a.sentences().isEmpty()) {
                out().println("  no receipts");
            }
        }
    }

    private static String members(List<ArtifactReceipts.Member> bundle) {
        List<String> out = new java.util.ArrayList<>();
        for (ArtifactReceipts.Member m : bundle) {
            out.add(m.pin().id() + (m.pin().commit() == null ? "" : "@" + m.pin().commit().abbreviated())
                    + (m.alive() ? "" : " (dead)"));
        }
        return String.join(", ", out);
    }

    abstract static class Withdrawal extends Context implements Callable<Integer> {
        @Mixin
        Shared.Actor actor;

        @Mixin
        Shared.Reason reasonOption;

        @Option(names = "--dry-run", description = "Print the plan; write nothing.")
        boolean dryRun;

        abstract CleanupPlan plan(Store store, String reason) throws Exception;

        @Override
        public Integer call() throws Exception {
            ActorName signer = Parse.actor("--actor", actor.name);
            String reason = reasonOption.read(stdin(), home());
            try (Store store = open()) {
                CleanupPlan plan = plan(store, reason);
                CommitResult landed = dryRun ? null : store.receipts().apply(signer, plan);
                if (json()) {
                    printJson(planJson(plan, landed));
                } else {
                    printPlan(out(), plan, landed);
                }
            }
            return Main.OK;
        }
    }

    /** A plan as JSON (README: the {@code retract-source} fields); {@code landed} null on a dry run. */
    static Map<String, Object> planJson(CleanupPlan p, CommitResult landed) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", p.at().hex());
        m.put("operation", p.operation().value());
        m.put("targets", p.targets());
        m.put("reason", p.reason());
        m.put("policy", p.policy().value());
        m.put("roots", ids(p.roots()));
        m.put("removals", p.removals().stream().map(r -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("id", r.id().value());
            x.put("layer", r.layer().value());
            x.put("why", r.why());
            return x;
        }).toList());
        m.put("revisions", p.revisions().stream().map(r -> {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("id", r.id().value());
            x.put("dropped", r.dropped());
            x.put("kept", r.kept());
            return x;
        }).toList());
        m.put("touched", ids(p.touched()));
        m.put("dry_run", landed == null);
        m.put("commit", landed == null ? null : landed.id().hex());
        return m;
    }

    /** A plan as text, one line per operation; {@code landed} null on a dry run. */
    static void printPlan(PrintWriter out, CleanupPlan p, CommitResult landed) {
        out.println((landed == null ? "plan (dry run) " : "") + p.operation() + " " + p.targets() + " at "
                + p.at().abbreviated() + ", flat summaries: " + p.policy());
        out.println("  retract " + p.roots().size() + " root fact(s): " + p.roots());
        for (CleanupPlan.Removal r : p.removals()) {
            out.println("  retract " + r.layer() + " " + r.id() + ": " + r.why());
        }
        for (CleanupPlan.Revision r : p.revisions()) {
            out.println("  revise summary " + r.id() + ": drop sentence(s) " + r.dropped() + ", keep " + r.kept());
        }
        out.println("  touched but alive (for review): " + p.touched().size());
        if (landed != null) {
            out.println("one signed commit " + landed.id().hex());
        }
    }

    @Command(name = "retract-source", description = "Retract documents and every assertion of them; cascade by receipts in one commit.")
    static final class RetractSource extends Withdrawal implements Callable<Integer> {
        @Parameters(index = "0..*", arity = "1..*", paramLabel = "DOC", description = "The source documents to retract.")
        List<String> docs;

        @Override
        CleanupPlan plan(Store store, String reason) throws Exception {
            return store.receipts().planRetractSource(Parse.facts("DOC", docs), reason);
        }
    }

    @Command(name = "revoke-relation", description = "Retract every assertion using PREDICATE; cascade by receipts in one commit.")
    static final class RevokeRelation extends Withdrawal implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "PREDICATE", description = "The relation whose assertions are retracted.")
        String predicate;

        @Override
        CleanupPlan plan(Store store, String reason) throws Exception {
            return store.receipts().planRevokeRelation(predicate, reason);
        }
    }

    @Command(name = "review", description = "List touched-but-alive artifacts and facts with stale refs; --ack records a review.")
    static final class Review extends Context implements Callable<Integer> {
        @Mixin
        Shared.At at;

        @Option(names = "--ack", paramLabel = "ITEM", description = "Acknowledge ITEM at its current version (needs --actor).")
        String ack;

        @Option(names = "--actor", paramLabel = "NAME", description = "Who signs the acknowledgement (with --ack).")
        String actor;

        @Option(names = "--note", paramLabel = "TEXT", description = "A note recorded with the acknowledgement.")
        String note;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                if (ack != null) {
                    if (actor == null) {
                        throw new Main.UsageException("--ack needs --actor");
                    }
                    ActorName who = Parse.actor("--actor", actor);
                    FactId item = Parse.fact("--ack", ack);
                    String text = TextInput.arg("--note", note);
                    CommitResult r = text == null ? store.receipts().acknowledge(who, item)
                            : store.receipts().acknowledge(who, item, text);
                    if (json()) {
                        printJson(Map.of("item", ack, "ack", r.written().get(0).value(), "commit", r.id().hex()));
                    } else {
                        out().println("acknowledged " + ack + " as " + r.written().get(0) + " in " + r.id().hex());
                    }
                    return Main.OK;
                }
                CommitId c = at(store, at);
                List<ReviewItem> items = store.receipts().review(c);
                if (json()) {
                    printJson(items.stream().map(i -> {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("id", i.id().value());
                        m.put("layer", i.layer());
                        m.put("reason", i.reason().value());
                        m.put("version", i.version().hex());
                        m.put("details", i.details());
                        return m;
                    }).toList());
                } else {
                    for (ReviewItem i : items) {
                        out().println(Render.safe(i.reason() + " " + i.layer() + " " + i.id() + "@"
                                + i.version().abbreviated() + ": " + String.join("; ", i.details())));
                    }
                    out().println(items.size() + " item(s) to review at " + c.abbreviated());
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "entail", description = "Materialise entailed edges (axioms in palimpsest.yaml); writes only the changes.")
    static final class Entail extends Context implements Callable<Integer> {
        @Mixin
        Shared.Actor actor;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                EntailResult r = store.receipts().entail(Parse.actor("--actor", actor.name));
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("commit", r.commit() == null ? null : r.commit().id().hex());
                    m.put("added", r.added());
                    m.put("revised", r.revised());
                    m.put("retracted", r.retracted());
                    m.put("edges", r.edges());
                    m.put("incremental", r.incremental());
                    m.put("basis", r.basis());
                    printJson(m);
                } else {
                    out().println(r.edges() + " entailed edges: " + r.added() + " added, " + r.revised() + " revised, "
                            + r.retracted() + " retracted" + (r.commit() == null ? " (nothing to write)"
                                    : " in " + r.commit().id().hex()));
                    out().println("  " + r.basis());
                }
            }
            return Main.OK;
        }
    }

    static List<String> ids(List<FactId> ids) {
        return ids.stream().map(FactId::value).toList();
    }
}
