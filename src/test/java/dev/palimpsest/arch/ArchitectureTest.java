package dev.palimpsest.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering contract: the public API ({@code api}) is the roof over the internals, {@code model}
 * is the ground floor, the applications ({@code cli}, {@code demo}, {@code bench}, {@code mcp}) sit on
 * top and share the JSON shapes of {@code wire} (model values only), the hub's web view ({@code web})
 * renders what the API answers, and no two packages depend on each other in a cycle.
 */
class ArchitectureTest {
    private static final String[] LIBRARIES = {"org.eclipse.jgit..", "org.bouncycastle..", "com.fasterxml.jackson.."};

    static final ArchRule INTERNALS_NEVER_IMPORT_THE_ROOF = noClasses()
            .that().resideInAPackage("dev.palimpsest.internal..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "dev.palimpsest.api..", "dev.palimpsest.cli..", "dev.palimpsest.demo..", "dev.palimpsest.bench..",
                    "dev.palimpsest.mcp..")
            .because("the public API is the roof: internals never import it");

    static final ArchRule MODEL_IS_THE_GROUND_FLOOR = noClasses()
            .that().resideInAPackage("dev.palimpsest.model..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "dev.palimpsest.api..", "dev.palimpsest.internal..", "dev.palimpsest.cli..", "dev.palimpsest.demo..",
                    "dev.palimpsest.bench..", "dev.palimpsest.mcp..")
            .orShould().dependOnClassesThat().resideInAnyPackage(LIBRARIES)
            .because("model holds plain values and exceptions that every layer may use");

    static final ArchRule API_HOLDS_NO_APPLICATION = noClasses()
            .that().resideInAPackage("dev.palimpsest.api..")
            .should().dependOnClassesThat().resideInAnyPackage(
                    "dev.palimpsest.cli..", "dev.palimpsest.demo..", "dev.palimpsest.bench..", "dev.palimpsest.mcp..");

    static final ArchRule MCP_SERVER_CALLS_ONLY_THE_PUBLIC_API = noClasses()
            .that().resideInAPackage("dev.palimpsest.mcp..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.palimpsest.internal..", "dev.palimpsest.cli..",
                    "org.eclipse.jgit..", "org.bouncycastle..")
            .because("the MCP server holds no business logic: it parses, calls the api and renders");

    static final ArchRule WEB_VIEW_CALLS_ONLY_THE_PUBLIC_API = noClasses()
            .that().resideInAPackage("dev.palimpsest.web..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.palimpsest.internal..", "dev.palimpsest.cli..",
                    "dev.palimpsest.mcp..", "dev.palimpsest.hub..", "dev.palimpsest.wire..", "dev.palimpsest.demo..",
                    "dev.palimpsest.bench..")
            .orShould().dependOnClassesThat().resideInAnyPackage(LIBRARIES)
            .because("the web view holds no business logic: it parses the request, calls the api and renders");

    static final ArchRule WIRE_SHAPES_ONLY_MODEL_VALUES = noClasses()
            .that().resideInAPackage("dev.palimpsest.wire..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.palimpsest.api..", "dev.palimpsest.internal..",
                    "dev.palimpsest.cli..", "dev.palimpsest.mcp..", "dev.palimpsest.demo..", "dev.palimpsest.bench..")
            .orShould().dependOnClassesThat().resideInAnyPackage(LIBRARIES)
            .because("the JSON shapes are shared by the CLI and the MCP server and know only model values");

    static final ArchRule NO_PACKAGE_CYCLES = slices()
            .matching("dev.palimpsest.(**)")
            .should().beFreeOfCycles();

    static final ArchRule NO_LIBRARY_TYPE_IN_PUBLIC_SIGNATURES = ArchRuleDefinition.codeUnits()
            .that().areDeclaredInClassesThat().resideInAnyPackage("dev.palimpsest.api..", "dev.palimpsest.model..")
            .and().arePublic()
            .and().areDeclaredInClassesThat().arePublic()
            .should(new ArchCondition<>("name no JGit, BouncyCastle or Jackson type in parameters, return or throws") {
                @Override
                public void check(JavaCodeUnit unit, ConditionEvents events) {
                    List<JavaClass> types = new java.util.ArrayList<>(unit.getRawParameterTypes());
                    types.add(unit.getRawReturnType());
                    unit.getThrowsClause().getTypes().forEach(types::add);
                    for (JavaClass t : types) {
                        String n = t.getName();
                        if (n.startsWith("org.eclipse.jgit.") || n.startsWith("org.bouncycastle.")
                                || n.startsWith("com.fasterxml.jackson.")) {
                            events.add(SimpleConditionEvent.violated(unit, unit.getFullName() + " exposes " + n));
                        }
                    }
                }
            });

    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.palimpsest");
    }

    @Test
    void internalPackagesNeverImportTheApiOrTheApplications() {
        INTERNALS_NEVER_IMPORT_THE_ROOF.check(production);
    }

    @Test
    void modelDependsOnNothingButTheJdk() {
        MODEL_IS_THE_GROUND_FLOOR.check(production);
    }

    @Test
    void apiDependsOnNoApplication() {
        API_HOLDS_NO_APPLICATION.check(production);
    }

    @Test
    void mcpServerCallsOnlyThePublicApi() {
        MCP_SERVER_CALLS_ONLY_THE_PUBLIC_API.check(production);
    }

    @Test
    void webViewCallsOnlyThePublicApi() {
        WEB_VIEW_CALLS_ONLY_THE_PUBLIC_API.check(production);
    }

    @Test
    void wireShapesOnlyModelValues() {
        WIRE_SHAPES_ONLY_MODEL_VALUES.check(production);
    }

    @Test
    void packagesFormNoCycle() {
        NO_PACKAGE_CYCLES.check(production);
    }

    @Test
    void publicSignaturesNameNoLibraryType() {
        NO_LIBRARY_TYPE_IN_PUBLIC_SIGNATURES.check(production);
    }

    @Test
    void thePlantedInternalToApiImportIsCaught() {
        JavaClasses planted = new ClassFileImporter().importPackages("dev.palimpsest.internal.archfixture");
        assertThat(planted.stream().anyMatch(c -> c.getModifiers().contains(JavaModifier.PUBLIC))).isTrue();
        var result = INTERNALS_NEVER_IMPORT_THE_ROOF.evaluate(planted);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains("PlantedApiImport").contains("dev.palimpsest.api.Store");
    }
}
