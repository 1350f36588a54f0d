package dev.palimpsest.internal.hooks;

import dev.palimpsest.model.Rule;
import dev.palimpsest.model.PalimpsestInternalException;
import dev.palimpsest.model.RejectedException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Installs {@code hooks/pre-receive} (bundled in the jar) into a bare repository, with the java
 * and the palimpsest that should run the audit filled into its {@code installed_*} lines. A
 * pre-receive hook that is not Palimpsest's is replaced only when forced. Stateless.
 */
public final class HookInstaller {
    static final String MARKER = "Palimpsest pre-receive hook";

    /** How the hook starts palimpsest: a java binary and either a jar or a class path. */
    public record Launch(Path java, Path jar, String classpath) {
        public Launch {
            if ((jar == null) == (classpath == null)) {
                throw new IllegalArgumentException("exactly one of jar and classpath");
            }
        }

        /** This process's java, and the jar it runs from, else its class path. */
        public static Launch current(Class<?> main) {
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            try {
                Path source = Path.of(main.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (Files.isRegularFile(source) && source.toString().endsWith(".jar")) {
                    return new Launch(java, source.toAbsolutePath(), null);
                }
            } catch (URISyntaxException | SecurityException | NullPointerException e) {
                // no usable code source: fall back to the class path
            }
            return new Launch(java, null, System.getProperty("java.class.path"));
        }
    }

    private HookInstaller() {}

    /** The bundled hook with the launch filled in. */
    public static String render(Launch launch) {
        String hook = bundled();
        hook = fill(hook, "installed_java", launch.java().toString());
        hook = fill(hook, "installed_jar", launch.jar() == null ? "" : launch.jar().toString());
        return fill(hook, "installed_classpath", launch.classpath() == null ? "" : launch.classpath());
    }

    /**
     * Writes {@code gitDir/hooks/pre-receive} (mode 0755) and returns its path.
     *
     * @throws RejectedException when {@code gitDir} is not a git directory, or holds another
     *     pre-receive hook and {@code force} is false
     */
    public static Path install(Path gitDir, Launch launch, boolean force) throws RejectedException {
        if (!Files.isRegularFile(gitDir.resolve("HEAD")) || !Files.isDirectory(gitDir.resolve("objects"))) {
            throw new RejectedException(Rule.NOT_A_STORE, "store " + gitDir, "is not a git directory");
        }
        Path target = gitDir.resolve("hooks").resolve("pre-receive");
        try {
            if (Files.exists(target) && !force && !Files.readString(target, StandardCharsets.UTF_8).contains(MARKER)) {
                throw new RejectedException(Rule.HOOK_EXISTS, target.toString(),
                        "holds another pre-receive hook; pass --force to replace it");
            }
            Files.createDirectories(target.getParent());
            Path tmp = Files.createTempFile(target.getParent(), ".pre-receive-", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
            Files.writeString(tmp, render(launch), StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    private static String bundled() {
        try (InputStream in = HookInstaller.class.getResourceAsStream("/hooks/pre-receive")) {
            if (in == null) {
                throw new PalimpsestInternalException("hooks/pre-receive is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new PalimpsestInternalException("cannot read the bundled hook", e);
        }
    }

    /** Replaces the line {@code name=''} with {@code name='value'}, quoted for sh. */
    private static String fill(String hook, String name, String value) {
        String line = name + "=''";
        if (!hook.contains("\n" + line + "\n")) {
            throw new PalimpsestInternalException("the bundled hook has no line " + line);
        }
        return hook.replace("\n" + line + "\n", "\n" + name + "='" + value.replace("'", "'\\''") + "'\n");
    }
}
