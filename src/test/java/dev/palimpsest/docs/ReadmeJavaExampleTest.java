package dev.palimpsest.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.api.KeyHome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java section is the code between its {@code readme-java} markers: it is compiled as
 * the body of a method against the test class path, run against a fresh store and key home, and
 * must print what the README says it prints (minted ids shown as {@code claim-…}).
 */
class ReadmeJavaExampleTest {
    private static final String BEGIN = "<!-- readme-java:begin -->";
    private static final String END = "<!-- readme-java:end -->";

    @TempDir
    Path dir;

    @Test
    void theReadmeJavaExampleCompilesAndPrintsWhatTheReadmeSays() throws Exception {
        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        Class<?> example = compile(wrap(snippet(readme)));
        String out = run(example, dir.resolve("kb.git"), new KeyHome(dir.resolve("home")));
        assertThat(out.replaceAll("claim-[0-9a-f]{12}", "claim-…").lines().toList())
                .containsExactlyElementsOf(printed(readme).lines().toList());
    }

    @Test
    void aSnippetThatDoesNotCompileFailsTheCheck() {
        String broken = wrap("Store store = Store.init(dir, home, null, null, null);");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> compile(broken))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("does not compile");
    }

    static String snippet(String readme) {
        int b = readme.indexOf(BEGIN);
        int e = readme.indexOf(END);
        assertThat(b).as("README.md has " + BEGIN).isNotNegative();
        assertThat(e).as("README.md has " + END + " after " + BEGIN).isGreaterThan(b);
        String block = readme.substring(b + BEGIN.length(), e).strip();
        assertThat(block).as("the markers hold one ```java block").startsWith("```java").endsWith("```");
        return block.substring("```java".length(), block.length() - 3);
    }

    /** The plain block after the example, introduced by "It prints:". */
    static String printed(String readme) {
        String after = readme.substring(readme.indexOf(END) + END.length());
        int intro = after.indexOf("It prints:");
        assertThat(intro).as("the README says what the example prints").isNotNegative();
        int open = after.indexOf("```\n", intro);
        int close = after.indexOf("```", open + 4);
        return after.substring(open + 4, close);
    }

    private static String wrap(String body) {
        return """
                import dev.palimpsest.api.*;
                import dev.palimpsest.model.*;
                import java.nio.file.Path;
                import java.util.*;

                public class ReadmeExample {
                    public static void run(Path dir, KeyHome home) throws Exception {
                %s
                    }
                }
                """.formatted(body);
    }

    private Class<?> compile(String source) throws IOException, ClassNotFoundException {
        Path src = Files.createDirectories(dir.resolve("src"));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Path file = src.resolve("ReadmeExample.java");
        Files.writeString(file, source, StandardCharsets.UTF_8);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-classpath", System.getProperty("java.class.path"), "-d", classes.toString(),
                    "--release", "17");
            boolean ok = javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjects(file)).call();
            if (!ok) {
                throw new AssertionError("the README's Java example does not compile:\n" + diagnostics.getDiagnostics()
                        .stream().map(d -> "line " + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
                        .collect(Collectors.joining("\n")) + "\n--- source ---\n" + source);
            }
        }
        URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader());
        return loader.loadClass("ReadmeExample");
    }

    private static String run(Class<?> example, Path store, KeyHome home) throws Exception {
        Method m = example.getMethod("run", Path.class, KeyHome.class);
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            m.invoke(null, store, home);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        } finally {
            System.setOut(saved);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }
}
