package dev.palimpsest.cli;

import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.api.Auditor;
import dev.palimpsest.model.AuditReport;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.NotFoundException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "audit", description = "Verify every signed commit and replay the gate over history; exit 3 on violations.")
final class AuditCommand extends Context implements Callable<Integer> {
    @Option(names = "--range", paramLabel = "OLD..NEW",
            description = "Only commits reachable from NEW and not from OLD (OLD empty or all zeros: from genesis)."
                    + " Default: all of main.")
    String range;

    @Override
    public Integer call() throws Exception {
        try (Auditor auditor = openAuditor()) {
            AuditReport r;
            try {
                r = range == null ? auditor.audit(progress()) : auditor.auditRange(range, progress());
            } catch (NotFoundException e) {
                throw e.getMessage().startsWith("no store at ") ? new Main.NoStoreException(e.getMessage()) : e;
            }
            if (json()) {
                printJson(json(r));
            } else {
                for (AuditViolation v : r.violations()) {
                    out().println(Render.safe(v.toString()));
                }
                out().println(summary(r));
            }
            return r.clean() ? Main.OK : Main.AUDIT_VIOLATIONS;
        }
    }

    private Auditor openAuditor() {
        try {
            return Auditor.open(storePath());
        } catch (NotFoundException e) {
            throw new Main.NoStoreException(e.getMessage());
        }
    }

    /** Progress on stderr, every 1000 commits, only when a terminal is attached. */
    private AuditProgress progress() {
        if (System.console() == null) {
            return AuditProgress.none();
        }
        PrintWriter err = spec.commandLine().getErr();
        int[] shown = {0};
        return (done, total) -> {
            if (done / 1000 > shown[0] || (done == total && shown[0] > 0)) {
                shown[0] = done / 1000;
                err.print("\raudit: " + done + "/" + total + " commits" + (done == total ? "\n" : ""));
                err.flush();
            }
        };
    }

    static String summary(AuditReport r) {
        String counts = "audited " + r.commits() + " commits (" + r.signatures() + " signatures, " + r.files()
                + " files, " + r.refs() + " refs): ";
        if (r.clean()) {
            return counts + "clean";
        }
        return counts + r.violations().size() + " violations in " + r.violatingCommits() + " commits ("
                + r.countsByRule().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                        .collect(Collectors.joining(", ")) + ")";
    }

    private static Map<String, Object> json(AuditReport r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("commits", r.commits());
        m.put("signatures", r.signatures());
        m.put("files", r.files());
        m.put("refs", r.refs());
        List<Map<String, Object>> vs = new ArrayList<>();
        for (AuditViolation v : r.violations()) {
            Map<String, Object> vm = new LinkedHashMap<>();
            vm.put("commit", v.commit().hex());
            vm.put("path", v.path());
            vm.put("rule", v.rule().id());
            vm.put("message", v.message());
            vs.add(vm);
        }
        m.put("violations", vs);
        m.put("clean", r.clean());
        return m;
    }
}
