package dev.palimpsest.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;

/**
 * The top-level help's command list, grouped by topic in a fixed order; a subcommand in no group is
 * listed under "Other" (HelpGroupsTest keeps that list empty).
 */
final class HelpGroups {
    static final Map<String, List<String>> GROUPS = new LinkedHashMap<>();

    static {
        GROUPS.put("Writing", List.of("assert", "revise", "retract", "supersede", "merge", "file", "ingest", "import"));
        GROUPS.put("Reading & recall", List.of("show", "history", "log", "live", "valid", "exists", "inbound", "stale", "weight",
                "search", "brief", "known-entities", "export"));
        GROUPS.put("Claims", List.of("claim", "current", "chain", "dead-ends", "contradictions"));
        GROUPS.put("Derivation & receipts", List.of("receipts", "retract-source", "revoke-relation", "review", "entail",
                "dependents", "explain", "policy"));
        GROUPS.put("Forgetting", List.of("forget", "expire", "unlearn-check"));
        GROUPS.put("Trust & audit", List.of("keys", "audit", "hooks"));
        GROUPS.put("Replication", List.of("clone", "remote", "push", "pull", "sync"));
        GROUPS.put("Team hub", List.of("serve", "token"));
        GROUPS.put("Judge checks", List.of("verify", "verify-eval", "rederive-audit"));
        GROUPS.put("Setup & tools", List.of("init", "mcp", "demo", "bench", "help"));
    }

    private HelpGroups() {}

    /** Installs the grouped list in place of picocli's flat one on the top-level command. */
    static void install(CommandLine cl) {
        cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST_HEADING, help -> "");
        cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, HelpGroups::render);
    }

    /** The groups as picocli prints command lists: a heading per group, then name and first description line. */
    static String render(CommandLine.Help help) {
        Map<String, CommandLine.Help> subs = help.subcommands();
        if (subs.isEmpty()) {
            return "";
        }
        Map<String, List<String>> groups = new LinkedHashMap<>(GROUPS);
        List<String> other = new ArrayList<>();
        for (String name : subs.keySet()) {
            if (GROUPS.values().stream().noneMatch(g -> g.contains(name))) {
                other.add(name);
            }
        }
        if (!other.isEmpty()) {
            groups.put("Other", other);
        }
        int width = help.commandSpec().usageMessage().width();
        int names = 2 + subs.keySet().stream().mapToInt(String::length).max().orElse(0) + 2;
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, List<String>> g : groups.entrySet()) {
            TextTable t = TextTable.forColumns(help.colorScheme(), new Column(names, 2, Column.Overflow.SPAN),
                    new Column(width - names, 1, Column.Overflow.WRAP));
            for (String name : g.getValue()) {
                CommandLine.Help sub = subs.get(name);
                if (sub != null) {
                    String[] d = sub.commandSpec().usageMessage().description();
                    t.addRowValues(name, d.length == 0 ? "" : d[0]);
                }
            }
            out.append(System.lineSeparator()).append(g.getKey()).append(':').append(System.lineSeparator()).append(t);
        }
        return out.toString();
    }
}
