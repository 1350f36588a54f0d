package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HelpGroupsTest {
    @Test
    void everySubcommandIsInExactlyOneGroup() {
        List<String> grouped = HelpGroups.GROUPS.values().stream().flatMap(List::stream).toList();
        List<String> subcommands = new ArrayList<>(Main.commandLine(System.in).getSubcommands().keySet());
        assertThat(grouped).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(subcommands);
    }

    @Test
    void helpListsTheGroupsInOrderAndEachCommandOnce() {
        Run r = Run.of("help");
        assertThat(r.code()).isZero();
        String out = r.out();
        List<String> headings = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^([A-Z][A-Za-z &]+):$").matcher(out);
        while (m.find()) {
            headings.add(m.group(1));
        }
        assertThat(headings).containsExactly("Writing", "Reading & recall", "Claims", "Derivation & receipts",
                "Forgetting", "Trust & audit", "Replication", "Team hub", "Judge checks", "Setup & tools");
        for (String name : Main.commandLine(System.in).getSubcommands().keySet()) {
            assertThat(Pattern.compile("(?m)^  " + Pattern.quote(name) + " ").matcher(out).results().count())
                    .as(name).isEqualTo(1);
        }
        assertThat(out).contains("  import ").doesNotContain("Commands:").doesNotContain("Other:");
        assertThat(Run.of("--help").out()).isEqualTo(out);
    }
}
