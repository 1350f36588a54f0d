package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.layout.ContentPaths;
import dev.palimpsest.internal.layout.FileMeta;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.rules.FileRules;
import dev.palimpsest.model.Fact;
import dev.palimpsest.model.Limits;
import dev.palimpsest.model.Rule;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectLoader;

/**
 * Produced files: a content blob under {@code files/<aa>/<bb>/<sha256>} is a regular file at most
 * {@link Limits#MAX_CONTENT} bytes whose SHA-256 (streamed, never read whole) is its name
 * ({@code wrong-path} otherwise), added by a commit that writes a file record naming it
 * ({@code unexplained-change} otherwise) and never removed; a file record's body is canonical
 * metadata for the name its id derives from, naming content in the commit's tree
 * ({@code invalid-file-record} otherwise, through the gate's own {@link FileRules}). Stateless.
 */
final class ContentCheck implements AuditCheck {
    @Override
    public boolean explains(String path) {
        return ContentPaths.sha256Of(path) != null;
    }

    @Override
    public void check(AuditedCommit c) throws IOException {
        Set<String> named = new HashSet<>();
        for (Change ch : c.changes()) {
            if (!ch.present() || !ch.path().startsWith(StorePaths.FACTS + "/")
                    || !ch.path().substring(ch.path().lastIndexOf('/') + 1).startsWith(FileMeta.ID_PREFIX)) {
                continue;
            }
            Fact f;
            try {
                f = c.fact(ch.newBlob());
            } catch (RuntimeException e) {
                continue;
            }
            if (f == null || !FileMeta.KIND.equals(f.kind().value())) {
                continue;
            }
            String path = ch.path();
            try {
                FileRules.record(f, p -> {
                    try {
                        return c.blobAt(p) != null;
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }, (rule, msg) -> c.violation(path, rule, msg));
            } catch (java.io.UncheckedIOException e) {
                throw e.getCause();
            }
            FileMeta m = FileMeta.decode(f.body());
            if (m != null && c.blobAt(m.contentPath()) != null) {
                named.add(m.contentPath());
            }
        }
        for (Change ch : c.changes()) {
            String sha = ContentPaths.sha256Of(ch.path());
            if (sha == null) {
                continue;
            }
            if (!ch.present()) {
                c.violation(ch.path(), Rule.UNEXPLAINED_CHANGE, "produced files' content is never removed");
                continue;
            }
            if (!ch.regularFile()) {
                continue; // FileCheck reports the mode of every file
            }
            if (!named.contains(ch.path())) {
                c.violation(ch.path(), Rule.UNEXPLAINED_CHANGE, "no file record written by this commit names it");
            }
            ObjectLoader l = c.reading().reader().open(ch.newBlob(), Constants.OBJ_BLOB);
            if (l.getSize() > Limits.MAX_CONTENT) {
                c.violation(ch.path(), Rule.TOO_LARGE, Limits.describe(l.getSize()) + ", over the limit of "
                        + Limits.describe(Limits.MAX_CONTENT) + " per produced file");
                continue;
            }
            String actual = sha256(l);
            if (!actual.equals(sha)) {
                c.violation(ch.path(), Rule.WRONG_PATH, "the content's SHA-256 is " + actual);
            }
        }
    }

    private static String sha256(ObjectLoader l) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (InputStream in = l.openStream();
                OutputStream out = new DigestOutputStream(OutputStream.nullOutputStream(), md)) {
            in.transferTo(out);
        }
        return HexFormat.of().formatHex(md.digest());
    }
}
