package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;

/** The command tree itself: described, helpful, and literal about its arguments. */
class CliSpecTest extends CliStoreTest {
    private static CommandLine tree() {
        return Main.commandLine(new ByteArrayInputStream(new byte[0]));
    }

    @Test
    void everyOptionAndPositionalOfEveryCommandHasADescription() {
        List<String> undescribed = new ArrayList<>();
        List<String> expanding = new ArrayList<>();
        walk(tree(), undescribed, expanding);
        assertThat(undescribed).isEmpty();
        assertThat(expanding).as("commands that expand @file arguments").isEmpty();
    }

    private static void walk(CommandLine cl, List<String> undescribed, List<String> expanding) {
        String name = cl.getCommandSpec().qualifiedName();
        if (cl.isExpandAtFiles()) {
            expanding.add(name);
        }
        List<ArgSpec> args = new ArrayList<>(cl.getCommandSpec().options());
        args.addAll(cl.getCommandSpec().positionalParameters());
        for (ArgSpec a : args) {
            if (String.join("", a.description()).isBlank()) {
                undescribed.add(name + " " + a.paramLabel() + (a.isOption() ? " " + ((CommandLine.Model.OptionSpec) a)
                        .longestName() : ""));
            }
        }
        cl.getSubcommands().values().forEach(sub -> walk(sub, undescribed, expanding));
    }

    @Test
    void helpListsTheCommandsAndHelpOfACommandShowsItsOptions() {
        Run all = Run.of("help");
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(all.out()).contains("assert").contains("retract").contains("audit");
        Run one = Run.of("help", "assert");
        assertThat(one.code()).as(one.err()).isZero();
        assertThat(one.out()).contains("--body-file").contains("--actor").contains("--json");
    }

    @Test
    void aMistypedOptionIsNamedRatherThanAMissingRequiredOne() {
        ok("init", "--actor", "alice");
        Run r = cmd("assert", "--actr", "alice", "--body", "x");
        assertThat(r.code()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("Unknown option: '--actr'").contains("--actor").doesNotContain("Missing required")
                .doesNotContain("'alice'");
    }

    @Test
    void aMistypedOptionBeforeTheSubcommandIsNamedToo() {
        ok("init", "--actor", "alice");
        Run r = Run.of("--actr", "alice", "assert", "--store", store, "--home", home, "--body", "x");
        assertThat(r.code()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("Unknown option: '--actr'").doesNotContain("Missing required");
    }

    @Test
    void anAtFileArgumentIsTakenLiterallyNeverReadAsAFile() throws Exception {
        ok("init", "--actor", "alice");
        Path secret = Files.writeString(dir.resolve("secret.asc"), "-----BEGIN PGP PRIVATE KEY BLOCK-----");
        Run r = ok("assert", "--actor", "alice", "--id", "lit", "--body", "@" + secret, "--json");
        Run shown = ok("show", "lit", "--json");
        assertThat(shown.json().get("body").asText()).isEqualTo("@" + secret);
        assertThat(r.out() + r.err() + shown.out() + shown.err()).doesNotContain("PRIVATE KEY");
        Run idFromFile = cmd("show", "@" + secret);
        assertThat(idFromFile.code()).isEqualTo(Main.REJECTED);
        assertThat(idFromFile.err()).doesNotContain("PRIVATE KEY");
    }
}
