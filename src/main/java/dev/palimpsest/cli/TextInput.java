package dev.palimpsest.cli;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.RejectedException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Text from the command line, byte-exact or refused: files and standard input are decoded as
 * strict UTF-8, and an argument that the locale's encoding may have damaged is refused rather than
 * stored.
 */
final class TextInput {
    /** Rule id: a file or standard input is not valid UTF-8. */
    static final Rule INVALID_UTF8 = Rule.INVALID_UTF8;
    /** Rule id: an argument was decoded with a non-UTF-8 locale and may be damaged. */
    static final Rule DAMAGED_ARGUMENT = Rule.DAMAGED_ARGUMENT;
    /** Rule id: an input file is missing, a folder, or unreadable. */
    static final Rule FILE_UNREADABLE = Rule.FILE_UNREADABLE;
    /** Rule id: an output file cannot be written where it was asked for. */
    static final Rule FILE_UNWRITABLE = Rule.FILE_UNWRITABLE;

    private TextInput() {}

    /**
     * {@code value} of {@code option} as given, refused when the JVM decoded the command line with a
     * non-UTF-8 encoding and the text may have been damaged by it, or when it holds a lone UTF-16
     * surrogate (rule {@code invalid-text}; possible only in-process, through {@link Main#run}).
     */
    static String arg(String option, String value) throws RejectedException {
        return arg(option, value, argvEncoding());
    }

    static String arg(String option, String value, String argvEncoding) throws RejectedException {
        if (value == null) {
            return null;
        }
        String hint = "; " + (option.equals("--body") || option.equals("--reason") ? "pass it with " + option + "-file or "
                : "") + "run under a UTF-8 locale (e.g. LANG=C.UTF-8)";
        if (value.indexOf('\uFFFD') >= 0) {
            throw new RejectedException(DAMAGED_ARGUMENT, option, "contains U+FFFD, the mark of bytes the locale's"
                    + " encoding (" + argvEncoding + ") could not decode; refused rather than stored damaged" + hint);
        }
        java.util.Optional<String> bad = dev.palimpsest.model.Text.findProblem("the text", value);
        if (bad.isPresent()) {
            throw new RejectedException(Rule.INVALID_TEXT, option, bad.get());
        }
        if (!isUtf8(argvEncoding) && !value.chars().allMatch(c -> c < 0x80)) {
            throw new RejectedException(DAMAGED_ARGUMENT, option, "has non-ASCII text decoded with the locale's"
                    + " encoding " + argvEncoding + ", not UTF-8; refused rather than stored possibly damaged" + hint);
        }
        return value;
    }

    /** Exactly one of {@code --body} and {@code --body-file}, as text; see {@link #file}. */
    static String body(Shared.Body body, InputStream stdin, KeyHome keyHome) throws RejectedException {
        return oneOf("--body", body.text, "--body-file", body.file, stdin, keyHome);
    }

    /** Exactly one of a text option and its file option, as text; see {@link #file}. */
    static String oneOf(String textOption, String text, String fileOption, String file, InputStream stdin,
            KeyHome keyHome) throws RejectedException {
        if ((text == null) == (file == null)) {
            throw new Main.UsageException(text == null ? "give " + textOption + " TEXT or " + fileOption + " PATH"
                    : textOption + " and " + fileOption + " exclude each other: give one");
        }
        return text != null ? arg(textOption, text) : file(fileOption, file, stdin, keyHome);
    }

    /**
     * The contents of {@code path} ({@code -}: {@code stdin}) decoded as strict UTF-8; more than
     * {@link Limits#MAX_BODY} bytes is a rejection, made after reading at most one byte more, and so
     * is a file in the key home ({@link #bytes}).
     */
    static String file(String option, String path, InputStream stdin, KeyHome keyHome) throws RejectedException {
        String what = "-".equals(path) ? option + " - (standard input)" : option + " " + path;
        byte[] bytes;
        if ("-".equals(path)) {
            try {
                bytes = upTo(what, stdin, Limits.MAX_BODY);
            } catch (IOException e) {
                throw new RejectedException(FILE_UNREADABLE, what, "cannot read standard input: " + e.getMessage());
            }
        } else {
            bytes = bytes(what, Path.of(path), Limits.MAX_BODY, keyHome);
        }
        return utf8(what, bytes);
    }

    /**
     * The bytes of a file of at most {@code max} bytes; a missing, oversize or unreadable file, or a
     * folder, is a rejection. A regular file over the limit is refused unread; any other file (a
     * device such as {@code /dev/zero}, a pipe) is read up to {@code max + 1} bytes, never further.
     * A file that resolves into the key home is refused unread (rule {@code secret-material}); the
     * text it holds meets the gate's check for secret-key material where it is written.
     */
    static byte[] bytes(String what, Path path, long max, KeyHome keyHome) throws RejectedException {
        if (Files.isDirectory(path)) {
            throw new RejectedException(FILE_UNREADABLE, what, "is a folder, not a file");
        }
        if (!Files.exists(path)) {
            throw new RejectedException(FILE_UNREADABLE, what, "no such file");
        }
        java.util.Optional<String> home = keyHome.readRefusal(path);
        if (home.isPresent()) {
            throw new RejectedException(Rule.SECRET_MATERIAL, what, home.get() + "; it is not read");
        }
        try {
            if (Files.isRegularFile(path)) {
                long size = Files.size(path);
                if (size > max) {
                    throw new RejectedException(Rule.TOO_LARGE, what, "is " + Limits.describe(size)
                            + ", over the limit of " + Limits.describe(max));
                }
            }
            try (InputStream in = Files.newInputStream(path)) {
                return upTo(what, in, max);
            }
        } catch (IOException e) {
            throw new RejectedException(FILE_UNREADABLE, what, "cannot be read (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
        }
    }

    /** At most {@code max} bytes of {@code in} (under 2 GiB); a longer stream is a rejection once {@code max + 1} are read. */
    private static byte[] upTo(String what, InputStream in, long max) throws IOException, RejectedException {
        byte[] bytes = in.readNBytes(Math.toIntExact(max + 1));
        if (bytes.length > max) {
            throw new RejectedException(Rule.TOO_LARGE, what, "is over the limit of " + Limits.describe(max));
        }
        return bytes;
    }

    /** Decodes strict UTF-8; the first malformed or unmappable sequence is a rejection naming its byte offset. */
    static String utf8(String what, byte[] bytes) throws RejectedException {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = d.decode(in, out, true);
        if (r.isUnderflow()) {
            r = d.flush(out);
        }
        if (r.isError()) {
            throw new RejectedException(INVALID_UTF8, what, "is not valid UTF-8: " + r.length()
                    + " bad byte(s) at byte offset " + in.position());
        }
        return out.flip().toString();
    }

    /** The encoding the JVM decoded its command line with. */
    static String argvEncoding() {
        String jnu = System.getProperty("sun.jnu.encoding");
        return jnu != null ? jnu : System.getProperty("native.encoding", Charset.defaultCharset().name());
    }

    private static boolean isUtf8(String encoding) {
        try {
            return Charset.forName(encoding).equals(StandardCharsets.UTF_8);
        } catch (RuntimeException e) {
            return false;
        }
    }
}
