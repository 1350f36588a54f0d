package dev.palimpsest.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The library never writes on the process's standard streams: its notices and progress go through
 * SLF4J, and only the CLI (which owns the terminal) and the MCP stdio transport's protocol stream
 * print.
 */
class QuietLibraryTest {
    @Test
    void onlyTheCliPrintsOnStandardError() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.palimpsest");
        noClasses().that().resideOutsideOfPackage("dev.palimpsest.cli..")
                .should().accessField(System.class, "err")
                .because("a library user decides where notices go (SLF4J); the CLI shows them on stderr unless --json")
                .check(classes);
    }
}
