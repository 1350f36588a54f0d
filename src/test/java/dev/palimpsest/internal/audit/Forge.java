package dev.palimpsest.internal.audit;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.internal.crypto.BcCommitSigner;
import dev.palimpsest.internal.crypto.SecretKeyFiles;
import dev.palimpsest.internal.git.TreeEditor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.GpgSignature;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * Makes commits on a store's main the way a tamperer could, bypassing the gate: arbitrary file
 * edits, message, identities and signature (by an actor's key from a key home, or none), then
 * force-moves main to the new commit.
 */
final class Forge {
    private final Path gitDir;
    private final KeyHome home;
    private final Map<String, byte[]> edits = new LinkedHashMap<>();
    private final List<ObjectId> parents = new ArrayList<>();
    private String message = "forged\n";
    private String authorName;
    private String authorEmail;
    private String committerName;
    private String signer;
    private boolean tamperAfterSigning;
    private Instant authorTime;
    private Instant committerTime;
    private Instant signatureTime;
    private ZoneOffset zone = ZoneOffset.UTC;
    private String rawSignature;
    private ObjectId rawTree;

    Forge(Path gitDir, KeyHome home) {
        this.gitDir = gitDir;
        this.home = home;
    }

    /** A commit by {@code actor} (author, committer and signer), on top of main. */
    static Forge by(Path gitDir, KeyHome home, String actor) {
        Forge f = new Forge(gitDir, home);
        f.authorName = actor;
        f.authorEmail = actor + "@palimpsest.local";
        f.committerName = actor;
        f.signer = actor;
        return f;
    }

    Forge put(String path, String content) {
        edits.put(path, content.getBytes(StandardCharsets.UTF_8));
        return this;
    }

    Forge put(String path, byte[] content) {
        edits.put(path, content);
        return this;
    }

    Forge remove(String path) {
        edits.put(path, null);
        return this;
    }

    /** A message whose trailers name {@code actor} and then each (verb, subject-key, subject) triple. */
    Forge trailers(String actor, String... opKeySubject) {
        StringBuilder b = new StringBuilder("forged commit\n\nPalimpsest-Actor: ").append(actor).append('\n');
        for (int i = 0; i + 2 < opKeySubject.length; i += 3) {
            b.append("Palimpsest-Op: ").append(opKeySubject[i]).append('\n');
            b.append(opKeySubject[i + 1]).append(": ").append(opKeySubject[i + 2]).append('\n');
        }
        message = b.toString();
        return this;
    }

    Forge message(String m) {
        message = m;
        return this;
    }

    Forge author(String name, String email) {
        authorName = name;
        authorEmail = email;
        return this;
    }

    Forge committer(String name) {
        committerName = name;
        return this;
    }

    Forge signedBy(String actor) {
        signer = actor;
        return this;
    }

    Forge unsigned() {
        signer = null;
        return this;
    }

    /** Changes the message after the signature was made, so the signature no longer matches. */
    Forge tamperAfterSigning() {
        tamperAfterSigning = true;
        return this;
    }

    /** Dates author and committer at {@code author} and {@code committer} (default: now). */
    Forge dated(Instant author, Instant committer) {
        authorTime = author;
        committerTime = committer;
        return this;
    }

    /** Signs with this signature creation time (default: the committer time). */
    Forge signedAt(Instant t) {
        signatureTime = t;
        return this;
    }

    /** Writes both idents in {@code z} (default UTC). */
    Forge zone(ZoneOffset z) {
        zone = z;
        return this;
    }

    /** Puts {@code armored} in the gpgsig header instead of a signature. */
    Forge rawSignature(String armored) {
        rawSignature = armored;
        return this;
    }

    /** Commits {@code tree} as it is, ignoring the file edits. */
    Forge tree(ObjectId tree) {
        rawTree = tree;
        return this;
    }

    /** Parents other than main's tip (the first one's tree is the base of the edits). */
    Forge parents(ObjectId... ps) {
        parents.clear();
        parents.addAll(List.of(ps));
        return this;
    }

    /** Writes the commit, moves main to it (forced) and returns it. */
    ObjectId commit() throws IOException {
        return commit(true);
    }

    /** Writes the commit; moves main only when {@code move}. */
    ObjectId commit(boolean move) throws IOException {
        try (Repository r = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
                ObjectInserter ins = r.newObjectInserter();
                ObjectReader reader = r.newObjectReader();
                RevWalk walk = new RevWalk(reader)) {
            if (parents.isEmpty()) {
                parents.add(r.resolve(Constants.R_HEADS + "main"));
            }
            ObjectId base = walk.parseCommit(parents.get(0)).getTree();
            Map<String, ObjectId> blobs = new LinkedHashMap<>();
            for (Map.Entry<String, byte[]> e : edits.entrySet()) {
                blobs.put(e.getKey(), e.getValue() == null ? null : ins.insert(Constants.OBJ_BLOB, e.getValue()));
            }
            ObjectId tree = rawTree != null ? rawTree : TreeEditor.apply(reader, ins, base, blobs);
            Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            Instant committed = committerTime == null ? now : committerTime;
            CommitBuilder cb = new CommitBuilder();
            cb.setTreeId(tree);
            cb.setParentIds(parents);
            cb.setAuthor(new PersonIdent(authorName, authorEmail, authorTime == null ? now : authorTime, zone));
            cb.setCommitter(new PersonIdent(committerName, authorEmail, committed, zone));
            cb.setMessage(message);
            if (rawSignature != null) {
                cb.setGpgSignature(new GpgSignature(rawSignature.getBytes(StandardCharsets.US_ASCII)));
            } else if (signer != null) {
                BcCommitSigner s = new BcCommitSigner(new SecretKeyFiles(home.dir()).load(
                        dev.palimpsest.model.ActorName.of(signer)));
                cb.setGpgSignature(new GpgSignature(s.sign(cb.build(), signatureTime == null ? committed
                        : signatureTime).getBytes(StandardCharsets.US_ASCII)));
            }
            if (tamperAfterSigning) {
                cb.setMessage(message + "\n");
            }
            ObjectId id = ins.insert(cb);
            ins.flush();
            if (move) {
                RefUpdate ru = r.updateRef(Constants.R_HEADS + "main");
                ru.setNewObjectId(id);
                ru.setForceUpdate(true);
                ru.disableRefLog();
                RefUpdate.Result res = ru.update();
                if (res != RefUpdate.Result.FORCED && res != RefUpdate.Result.FAST_FORWARD
                        && res != RefUpdate.Result.NEW) {
                    throw new IOException("cannot move main: " + res);
                }
            }
            return id;
        }
    }
}
