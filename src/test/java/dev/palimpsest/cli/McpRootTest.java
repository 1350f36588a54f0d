package dev.palimpsest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The mcp-only command tree: chosen exactly for mcp command lines, and the same mcp command as the full tree's. */
class McpRootTest {
    @Test
    void mcpAfterAnyGlobalOptionsTakesTheMcpOnlyTree() {
        assertThat(McpRoot.serves(new String[] {"mcp", "--actor", "a"})).isTrue();
        assertThat(McpRoot.serves(new String[] {"--store", "s", "--home", "h", "--json", "mcp"})).isTrue();
        assertThat(McpRoot.serves(new String[] {"--store=s", "--home=h", "mcp", "--help"})).isTrue();
    }

    @Test
    void everyOtherCommandLineTakesTheFullTree() {
        assertThat(McpRoot.serves(new String[] {})).isFalse();
        assertThat(McpRoot.serves(new String[] {"show", "mcp"})).isFalse();
        assertThat(McpRoot.serves(new String[] {"--store", "mcp", "show", "x"})).isFalse();
        assertThat(McpRoot.serves(new String[] {"--help", "mcp"})).isFalse();
        assertThat(McpRoot.serves(new String[] {"help", "mcp"})).isFalse();
        assertThat(McpRoot.serves(new String[] {"--stor", "s", "mcp"})).isFalse();
    }

    @Test
    void theMcpCommandHasTheSameHelpAndOptionsInBothTrees() {
        CommandLine full = Main.commandLine(new ByteArrayInputStream(new byte[0])).getSubcommands().get("mcp");
        CommandLine alone = McpRoot.commandLine(new ByteArrayInputStream(new byte[0])).getSubcommands().get("mcp");
        assertThat(alone.getUsageMessage(CommandLine.Help.Ansi.OFF))
                .isEqualTo(full.getUsageMessage(CommandLine.Help.Ansi.OFF));
        assertThat(alone.isExpandAtFiles()).isFalse();
    }

    @Test
    void anMcpCommandLineWithAMistakeIsTheSameUsageError() {
        Run r = Run.of("--store", "/nonexistent", "mcp", "--actr", "alice");
        assertThat(r.code()).isEqualTo(Main.USAGE);
        assertThat(r.err()).contains("Unknown option: '--actr'").contains("palimpsest mcp --help");
    }
}
