package dev.palimpsest.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Runs an external command (git, gpg) to completion, failing loudly on a non-zero exit. */
final class Proc {
    private Proc() {}

    static String run(Path dir, Map<String, String> env, byte[] stdin, String... cmd) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(List.of(cmd)).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        if (stdin != null) {
            p.getOutputStream().write(stdin);
        }
        p.getOutputStream().close();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = p.getInputStream()) {
            in.transferTo(out);
        }
        try {
            int code = p.waitFor();
            String text = out.toString(StandardCharsets.UTF_8);
            if (code != 0) {
                throw new IOException(String.join(" ", cmd) + " exited " + code + ": " + text);
            }
            return text;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
