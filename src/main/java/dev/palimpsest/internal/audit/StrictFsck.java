package dev.palimpsest.internal.audit;

import org.eclipse.jgit.errors.CorruptObjectException;

/**
 * The checks {@code git fsck --strict} makes on commits and trees that JGit's
 * {@link org.eclipse.jgit.lib.ObjectChecker} leaves out, ported from git's {@code fsck.c}: a NUL
 * anywhere in a commit ({@code nulInHeader}, {@code nulInCommit}), a header without its final line
 * feed ({@code unterminatedHeader}), author and committer lines as {@code fsck_ident} reads them
 * (a name before the e-mail and a space between them, no zero-padded or overflowing date, a zone of
 * exactly a sign and four digits), one author line only, and a tree entry naming the null object id
 * ({@code nullSha1}). Each failure is a {@link CorruptObjectException} whose message starts with
 * git's message id. {@code ObjectChecker} checks the rest: a commit is checked here first (as git
 * checks its header first, so JGit never reads past an unterminated one), a tree after it. Stateless.
 */
final class StrictFsck {
    private static final int ID_LENGTH = 20;

    private StrictFsck() {}

    /** Checks a commit object's bytes (their tree and parent lines are left to {@code ObjectChecker}). */
    static void commit(byte[] raw) throws CorruptObjectException {
        headers(raw);
        int p = skipLine(raw, 0);
        while (startsWith(raw, p, "parent ")) {
            p = skipLine(raw, p);
        }
        int authors = 0;
        while (startsWith(raw, p, "author ")) {
            authors++;
            ident(raw, p + "author ".length());
            p = skipLine(raw, p);
        }
        if (authors > 1) {
            throw fail("multipleAuthors", "invalid format - multiple 'author' lines");
        }
        if (startsWith(raw, p, "committer ")) {
            ident(raw, p + "committer ".length());
        }
        for (byte b : raw) {
            if (b == 0) {
                throw fail("nulInCommit", "NUL byte in the commit object body");
            }
        }
    }

    /** Checks a tree object's bytes, which {@code ObjectChecker} has found well formed. */
    static void tree(byte[] raw) throws CorruptObjectException {
        int p = 0;
        while (p < raw.length) {
            int nul = p;
            while (nul < raw.length && raw[nul] != 0) {
                nul++;
            }
            int id = nul + 1;
            if (id + ID_LENGTH > raw.length) {
                return;
            }
            boolean zero = true;
            for (int i = id; i < id + ID_LENGTH && zero; i++) {
                zero = raw[i] == 0;
            }
            if (zero) {
                throw fail("nullSha1", "contains entries pointing to null sha1");
            }
            p = id + ID_LENGTH;
        }
    }

    /** git's {@code verify_headers}: no NUL before the blank line, and a last header line that ends. */
    private static void headers(byte[] raw) throws CorruptObjectException {
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == 0) {
                throw fail("nulInHeader", "unterminated header: NUL at offset " + i);
            }
            if (raw[i] == '\n' && i + 1 < raw.length && raw[i + 1] == '\n') {
                return;
            }
        }
        if (raw.length == 0 || raw[raw.length - 1] != '\n') {
            throw fail("unterminatedHeader", "unterminated header");
        }
    }

    /** git's {@code fsck_ident} on the identity starting at {@code p}: {@code name <email> date zone}. */
    private static void ident(byte[] raw, int p) throws CorruptObjectException {
        if (at(raw, p) == '<') {
            throw fail("missingNameBeforeEmail", "invalid author/committer line - missing space before email");
        }
        p = toAny(raw, p);
        if (at(raw, p) == '>') {
            throw fail("badName", "invalid author/committer line - bad name");
        }
        if (at(raw, p) != '<') {
            throw fail("missingEmail", "invalid author/committer line - missing email");
        }
        if (at(raw, p - 1) != ' ') {
            throw fail("missingSpaceBeforeEmail", "invalid author/committer line - missing space before email");
        }
        p = toAny(raw, p + 1);
        if (at(raw, p) != '>') {
            throw fail("badEmail", "invalid author/committer line - bad email");
        }
        p++;
        if (at(raw, p) != ' ') {
            throw fail("missingSpaceBeforeDate", "invalid author/committer line - missing space before date");
        }
        p++;
        if (at(raw, p) == '0' && at(raw, p + 1) != ' ') {
            throw fail("zeroPaddedDate", "invalid author/committer line - zero-padded date");
        }
        int end = timestamp(raw, p);
        if (end == p || at(raw, end) != ' ') {
            throw fail("badDate", "invalid author/committer line - bad date");
        }
        p = end + 1;
        if ((at(raw, p) != '+' && at(raw, p) != '-') || !digit(at(raw, p + 1)) || !digit(at(raw, p + 2))
                || !digit(at(raw, p + 3)) || !digit(at(raw, p + 4)) || at(raw, p + 5) != '\n') {
            throw fail("badTimezone", "invalid author/committer line - bad time zone");
        }
    }

    /**
     * Where C's {@code strtoumax} stops reading a date at {@code p} (leading white space and a sign
     * allowed; {@code p} itself when there is no digit); throws {@code badDateOverflow} for a date
     * past a signed 64-bit {@code time_t}, as git's {@code date_overflows} does.
     */
    private static int timestamp(byte[] raw, int p) throws CorruptObjectException {
        int q = p;
        while (space(at(raw, q))) {
            q++;
        }
        boolean negative = at(raw, q) == '-';
        if (at(raw, q) == '+' || negative) {
            q++;
        }
        int digits = q;
        long value = 0;
        boolean overflow = false;
        while (digit(at(raw, q))) {
            int d = at(raw, q) - '0';
            overflow |= value > (Long.MAX_VALUE - d) / 10;
            value = overflow ? value : value * 10 + d;
            q++;
        }
        if (q == digits) {
            return p;
        }
        if (overflow || (negative && value != 0)) {
            throw fail("badDateOverflow", "invalid author/committer line - date causes integer overflow");
        }
        return q;
    }

    /** The offset of the first {@code <}, {@code >} or line feed at or after {@code p} (C's {@code strcspn}). */
    private static int toAny(byte[] raw, int p) {
        while (p < raw.length && raw[p] != '<' && raw[p] != '>' && raw[p] != '\n') {
            p++;
        }
        return p;
    }

    /** The byte at {@code i}, or 0 past either end (where git's buffer holds its terminating NUL). */
    private static int at(byte[] raw, int i) {
        return i >= 0 && i < raw.length ? raw[i] : 0;
    }

    private static boolean digit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean space(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r';
    }

    private static boolean startsWith(byte[] raw, int p, String prefix) {
        if (p + prefix.length() > raw.length) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (raw[p + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int skipLine(byte[] raw, int p) {
        while (p < raw.length && raw[p] != '\n') {
            p++;
        }
        return p + 1;
    }

    private static CorruptObjectException fail(String id, String message) {
        return new CorruptObjectException(id + ": " + message);
    }
}
