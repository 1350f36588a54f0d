package dev.palimpsest.cli;

import dev.palimpsest.api.Store;
import dev.palimpsest.model.ClaimResult;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.ClaimView;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.Contradiction;
import dev.palimpsest.model.DeadEnds;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.RefRole;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Claims about entities: claim (write with contradiction detection), current, chain, dead-ends, contradictions. */
final class ClaimCommands {
    private static final SecureRandom RANDOM = new SecureRandom();

    private ClaimCommands() {}

    @Command(name = "claim", description = "Write a claim (subject, predicate, object, with its source) as one signed"
            + " commit; report the live claims it contradicts (stored anyway: resolve with --supersedes or supersede).")
    static final class Claim extends Context implements Callable<Integer> {
        @Mixin
        Shared.Sealing sealing;

        @Mixin
        Shared.ValidTime validTime;

        @Mixin
        Shared.Actor actor;

        @Option(names = "--subject", required = true, paramLabel = "S",
                description = "The entity the claim is about (matched by its normalised key).")
        String subject;

        @Option(names = "--predicate", required = true, paramLabel = "P",
                description = "What is said about it, e.g. 'times out after'.")
        String predicate;

        @Option(names = "--object", required = true, paramLabel = "O", description = "The value claimed.")
        String object;

        @Option(names = "--source", required = true, paramLabel = "ID",
                description = "A fact the claim comes from (ref role source, pinned at the commit the write lands on)."
                        + " Repeatable; at least one.")
        List<String> sources = new ArrayList<>();

        @Option(names = "--quote", paramLabel = "TEXT",
                description = "A verbatim quote (12+ characters) from the first source, anchoring the claim.")
        String quote;

        @Option(names = "--run", paramLabel = "R",
                description = "The agent run that learned it ([A-Za-z0-9][A-Za-z0-9._:-]{0,79}); also a Palimpsest-Run"
                        + " trailer.")
        String run;

        @Option(names = "--confidence", paramLabel = "X", description = "In [0, 1].")
        Double confidence;

        @Option(names = "--id", paramLabel = "ID", description = "The claim's id (default: minted, entity-claim-<12 hex>).")
        String id;

        @Option(names = "--verify",
                description = "Write only if the judge accepts the claim against --quote (anchor first, then the"
                        + " fail-closed reviewer); the verdict is recorded in the claim (review:). Exit 5 when rejected.")
        boolean verify;

        @Option(names = "--author-model", paramLabel = "M",
                description = "With --verify: the model that wrote the claim; the same model as judge is refused (exit 5),"
                        + " the same vendor warned on stderr.")
        String authorModel;

        @Mixin
        JudgeCommands.JudgeOptions judge;

        @Option(names = "--supersedes", paramLabel = "OLD",
                description = "Correct fact OLD: the claim supersedes it (refused if OLD is already superseded).")
        String supersedes;

        @Override
        public Integer call() throws Exception {
            String s = TextInput.arg("--subject", subject);
            String p = TextInput.arg("--predicate", predicate);
            String o = TextInput.arg("--object", object);
            String q = quote == null ? null : TextInput.arg("--quote", quote);
            FactId given = Parse.fact("--id", id);
            FactId old = Parse.fact("--supersedes", supersedes);
            List<RefSpec> refs = new ArrayList<>();
            for (String src : sources) {
                FactId target = Parse.fact("--source", src);
                refs.add(new RefSpec(target, null, RefRole.SOURCE, refs.isEmpty() ? q : null));
            }
            if (run != null) {
                TextInput.arg("--run", run);
            }
            FactId fid = given != null ? given : FactId.of("entity-claim-" + HexFormat.of().formatHex(bytes()));
            ClaimSpec spec = new ClaimSpec(fid, s, p, o, refs, run, confidence, null);
            spec = sealing.sensitive ? spec.asSensitive() : spec;
            spec = sealing.deadline() != null ? spec.retainedUntil(sealing.deadline()) : spec;
            spec = sealing.plaintext ? spec.asPlaintext() : spec;
            spec = validTime.apply(spec);
            try (Store store = open()) {
                ClaimResult r;
                try {
                    if (verify) {
                        dev.palimpsest.model.Judge j = judge.required(store);
                        if (authorModel != null) {
                            dev.palimpsest.api.Verification.checkPair(TextInput.arg("--author-model", authorModel),
                                    j.model()).ifPresent(w -> this.spec.commandLine().getErr().println("warning: " + w));
                        }
                        r = old == null ? store.claims().claimVerified(Parse.actor("--actor", actor.name), spec, j)
                                : store.claims().supersedeVerified(Parse.actor("--actor", actor.name), old, spec, j);
                    } else {
                        r = old == null ? store.claims().claim(Parse.actor("--actor", actor.name), spec)
                                : store.claims().supersede(Parse.actor("--actor", actor.name), old, spec);
                    }
                } catch (RejectedException e) {
                    throw Failure.unminted(e, given == null ? fid : null);
                }
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("id", r.id().value());
                    m.put("commit", r.commit().hex());
                    List<Map<String, Object>> cs = new ArrayList<>();
                    for (ClaimResult.Conflict c : r.conflicts()) {
                        Map<String, Object> cm = new LinkedHashMap<>();
                        cm.put("id", c.id().value());
                        cm.put("object", c.object());
                        cm.put("source", c.source().value());
                        cs.add(cm);
                    }
                    m.put("conflicts", cs);
                    printJson(m);
                } else {
                    out().println(r.id() + " " + r.commit().hex());
                    for (ClaimResult.Conflict c : r.conflicts()) {
                        out().println("contradicts " + c.id() + ": " + Render.safe(c.object()) + " (from " + c.source()
                                + ")");
                    }
                }
            }
            return Main.OK;
        }

        private static byte[] bytes() {
            byte[] b = new byte[6];
            RANDOM.nextBytes(b);
            return b;
        }
    }

    static Map<String, Object> view(ClaimView c, boolean full) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.id().value());
        m.put("subject", c.subject());
        m.put("predicate", c.predicate());
        m.put("object", c.object());
        m.put("source", c.source().value());
        m.put("run", c.run());
        if (full) {
            m.put("actor", c.actor().value());
        }
        m.put("commit", c.commit().hex());
        if (full) {
            m.put("status", c.status().label());
            m.put("superseded_by", c.supersededBy() == null ? null : c.supersededBy().value());
            m.put("corrected_at", c.correctedAt() == null ? null : c.correctedAt().hex());
        }
        return m;
    }

    /** {@link #line(ClaimView)}, then the claim's validity at {@code at} when it is not open at both ends. */
    static String line(ClaimView c, Store store, CommitId at) throws dev.palimpsest.model.NotFoundException {
        java.util.Optional<dev.palimpsest.model.Validity> v = store.validity(c.id(), at);
        return v.isPresent() && !v.get().always() ? line(c) + " valid " + Render.validity(v.get()) : line(c);
    }

    /** {@link #view}, with the claim's validity at {@code at} ({@code valid_from}, {@code valid_until}; each only when closed). */
    static Map<String, Object> view(ClaimView c, boolean full, Store store, CommitId at)
            throws dev.palimpsest.model.NotFoundException {
        Map<String, Object> m = view(c, full);
        java.util.Optional<dev.palimpsest.model.Validity> v = store.validity(c.id(), at);
        v.flatMap(dev.palimpsest.model.Validity::start).ifPresent(t -> m.put("valid_from", t.toString()));
        v.flatMap(dev.palimpsest.model.Validity::end).ifPresent(t -> m.put("valid_until", t.toString()));
        return m;
    }

    static String line(ClaimView c) {
        StringBuilder b = new StringBuilder();
        b.append(c.id()).append(": ").append(Render.safe(c.subject())).append(" | ").append(Render.safe(c.predicate()))
                .append(" | ").append(Render.safe(c.object())).append("  (source ").append(c.source());
        if (c.run() != null) {
            b.append(", run ").append(c.run());
        }
        b.append(", ").append(c.actor()).append(", ").append(c.commit().hex(), 0, 12).append(')');
        if (c.status() != ClaimView.Status.LIVE) {
            b.append(" ").append(c.status().label());
            if (c.supersededBy() != null) {
                b.append(" by ").append(c.supersededBy());
            }
            b.append(" at ").append(c.correctedAt().hex(), 0, 12);
        }
        return b.toString();
    }

    @Command(name = "current", description = "List the live claims about SUBJECT at the commit (not retracted, not"
            + " superseded by a live fact), oldest first.")
    static final class Current extends Context implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "SUBJECT", description = "The entity (matched by its normalised key).")
        String subject;

        @Option(names = "--predicate", paramLabel = "P", description = "Only claims with this predicate.")
        String predicate;

        @Mixin
        Shared.At at;

        @Mixin
        Shared.ValidAt validAt;

        @Override
        public Integer call() throws Exception {
            String s = TextInput.arg("SUBJECT", subject);
            String p = predicate == null ? null : TextInput.arg("--predicate", predicate);
            try (Store store = open()) {
                CommitId c = at(store, at);
                var q = validAt.apply(store.claims().at(c));
                List<ClaimView> cs = p == null ? q.current(s) : q.current(s, p);
                if (json()) {
                    List<Map<String, Object>> out = new ArrayList<>();
                    for (ClaimView v : cs) {
                        out.add(view(v, false, store, c));
                    }
                    printJson(out);
                } else {
                    for (ClaimView v : cs) {
                        out().println(line(v, store, c));
                    }
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "chain", description = "The correction chain of SUBJECT PREDICATE at the commit, oldest first:"
            + " each claim with its source, run, actor and commit, and what superseded it.")
    static final class Chain extends Context implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "SUBJECT", description = "The entity (matched by its normalised key).")
        String subject;

        @Parameters(index = "1", paramLabel = "PREDICATE", description = "The predicate (matched by its normalised key).")
        String predicate;

        @Mixin
        Shared.At at;

        @Mixin
        Shared.ValidAt validAt;

        @Override
        public Integer call() throws Exception {
            String s = TextInput.arg("SUBJECT", subject);
            String p = TextInput.arg("PREDICATE", predicate);
            try (Store store = open()) {
                CommitId c = at(store, at);
                List<ClaimView> cs = validAt.apply(store.claims().at(c)).chain(s, p);
                if (json()) {
                    printJson(cs.stream().map(v -> view(v, true)).toList());
                } else {
                    cs.forEach(v -> out().println(line(v)));
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "dead-ends", description = "The superseded or retracted claims about SUBJECT at the commit, newest"
            + " correction first (correction commit, then id; with --query, most relevant first), and how many the"
            + " cap left out.")
    static final class DeadEndsCmd extends Context implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "SUBJECT", description = "The entity (matched by its normalised key).")
        String subject;

        @Option(names = "--query", paramLabel = "TEXT",
                description = "Rank the dead ends by relevance to TEXT (BM25 of their triples); ties newest first.")
        String query;

        @Option(names = "--max", paramLabel = "N", defaultValue = "20",
                description = "Keep at most N dead ends (default 20); the rest are counted as omitted.")
        int max;

        @Mixin
        Shared.At at;

        @Override
        public Integer call() throws Exception {
            String s = TextInput.arg("SUBJECT", subject);
            if (max < 0) {
                throw new RejectedException(Parse.INVALID_ARGUMENT, "--max", "must not be negative, got " + max);
            }
            try (Store store = open()) {
                CommitId c = at(store, at);
                String q = query == null ? "" : TextInput.arg("--query", query);
                DeadEnds d = store.claims().at(c).deadEnds(s, q, max);
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("kept", d.kept().stream().map(v -> view(v, true)).toList());
                    m.put("omitted", d.omitted());
                    printJson(m);
                } else {
                    d.kept().forEach(v -> out().println(line(v)));
                    if (d.omitted() > 0) {
                        out().println("(" + d.omitted() + (q.isBlank() ? " older" : " less relevant")
                                + " dead ends omitted)");
                    }
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "contradictions", description = "Groups of live claims at the commit with the same subject and"
            + " predicate and different objects whose validity overlaps (predicates declared multi_valued in"
            + " palimpsest.yaml excepted; a succession in valid time is no contradiction).")
    static final class Contradictions extends Context implements Callable<Integer> {
        @Option(names = "--subject", paramLabel = "S", description = "Only this entity (default: every entity).")
        String subject;

        @Mixin
        Shared.At at;

        @Mixin
        Shared.ValidAt validAt;

        @Override
        public Integer call() throws Exception {
            String s = subject == null ? null : TextInput.arg("--subject", subject);
            try (Store store = open()) {
                CommitId c = at(store, at);
                var q = validAt.apply(store.claims().at(c));
                List<Contradiction> groups = s == null ? q.contradictions() : q.contradictions(s);
                if (json()) {
                    List<Map<String, Object>> out = new ArrayList<>();
                    for (Contradiction g : groups) {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("subject", g.subject());
                        m.put("predicate", g.predicate());
                        List<Map<String, Object>> cs = new ArrayList<>();
                        for (ClaimView v : g.claims()) {
                            Map<String, Object> cm = new LinkedHashMap<>();
                            cm.put("id", v.id().value());
                            cm.put("object", v.object());
                            cs.add(cm);
                        }
                        m.put("claims", cs);
                        out.add(m);
                    }
                    printJson(out);
                } else {
                    for (Contradiction g : groups) {
                        StringBuilder b = new StringBuilder(Render.safe(g.subject()) + " | " + Render.safe(g.predicate())
                                + ":");
                        g.claims().forEach(v -> b.append(' ').append(v.id()).append('=').append(Render.safe(v.object())));
                        out().println(b);
                    }
                }
            }
            return Main.OK;
        }
    }
}
