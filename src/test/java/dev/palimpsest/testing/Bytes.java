package dev.palimpsest.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Searches bytes and files for a text: where content that must be gone is still found. */
public final class Bytes {
    private Bytes() {}

    /** True when {@code needle} occurs in {@code hay}. */
    public static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** The regular files under {@code dir}, except those under {@code skip}, whose bytes hold {@code text} (UTF-8). */
    public static List<Path> filesHolding(Path dir, String text, Path skip) throws IOException {
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        List<Path> out = new ArrayList<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                if (!p.startsWith(skip) && contains(Files.readAllBytes(p), needle)) {
                    out.add(p);
                }
            }
        }
        return out;
    }
}
