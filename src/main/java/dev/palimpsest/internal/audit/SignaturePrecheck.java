package dev.palimpsest.internal.audit;

import dev.palimpsest.internal.crypto.CommitSignature;
import dev.palimpsest.internal.crypto.TrustedKey;
import dev.palimpsest.internal.layout.StorePaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.util.sha1.SHA1;

/**
 * Verifies, on background threads while a fetch copies objects, the signatures of the incoming
 * commits with the keys trusted at the local {@code main}, so the audit that follows need not
 * (Ed25519 verification is most of its work). Each commit's bytes are hashed (JGit's SHA-1 with
 * collision detection) and used only when they are the object of that id, so where the bytes came
 * from does not matter. A result is only a shortcut: {@link #verified} answers true for a commit
 * and key only when that key's signature over that exact commit verified; the audit still decides
 * whether the key is the one trusted at the commit's parent, and checks everything else. Thread-safe.
 */
public final class SignaturePrecheck implements VerifiedSignatures {
    private static final Object[] END = new Object[0];
    private final Map<ObjectId, String> verified = new ConcurrentHashMap<>();
    private final Map<ObjectId, CommitSignature> parsed = new ConcurrentHashMap<>();
    private final Thread thread;
    /** Further threads of a fed precheck (the first is {@link #thread}). */
    private final List<Thread> more = new ArrayList<>();
    private final java.util.concurrent.BlockingQueue<Object[]> fed;

    private SignaturePrecheck(Repository source, ObjectId tip, Collection<ObjectId> haves, List<TrustedKey> keys) {
        this.thread = new Thread(() -> run(source, tip, haves, keys), "palimpsest-precheck");
        this.fed = null;
        thread.setDaemon(true);
    }

    private SignaturePrecheck(List<TrustedKey> keys, int threads) {
        this.fed = keys.isEmpty() ? null : new java.util.concurrent.LinkedBlockingQueue<>();
        this.thread = new Thread(() -> drain(keys), "palimpsest-precheck");
        thread.setDaemon(true);
        for (int i = 1; i < threads && fed != null; i++) {
            Thread t = new Thread(() -> drain(keys), "palimpsest-precheck-" + i);
            t.setDaemon(true);
            more.add(t);
        }
    }

    /**
     * Starts verifying, with {@code keys}, the commits {@link #offer}ed to it (by a fetch, as it
     * copies them) until {@link #finish}, on one thread per core (at most two: the copy runs too).
     */
    public static SignaturePrecheck fed(List<TrustedKey> keys) {
        SignaturePrecheck p = new SignaturePrecheck(List.copyOf(keys),
                Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())));
        p.thread.start();
        p.more.forEach(Thread::start);
        return p;
    }

    /** Queues the commit {@code id} with the bytes read for it (hashed here again before use). */
    public void offer(ObjectId id, byte[] bytes) {
        if (fed != null) {
            fed.add(new Object[] {id.copy(), bytes});
        }
    }

    /** Tells a fed precheck that no more commits come, and waits until it has checked the queued ones. */
    public void finish() {
        if (fed != null) {
            for (int i = 0; i <= more.size(); i++) {
                fed.add(END);
            }
        }
        await();
    }

    private void drain(List<TrustedKey> keys) {
        if (fed == null) {
            return;
        }
        try {
            for (Object[] item; (item = fed.take()) != END; ) {
                try {
                    check((ObjectId) item[0], (byte[]) item[1], keys);
                } catch (RuntimeException e) {
                    // a shortcut only: whatever was not verified here the audit verifies
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts verifying the commits reachable from {@code tip} and not from {@code haves} in
     * {@code source} (read-only; must stay open until {@link #await}) with {@code keys}.
     */
    public static SignaturePrecheck start(Repository source, ObjectId tip, Collection<ObjectId> haves,
            List<TrustedKey> keys) {
        SignaturePrecheck p = new SignaturePrecheck(source, tip, List.copyOf(haves), List.copyOf(keys));
        p.thread.start();
        return p;
    }

    /** Waits until the background threads end. */
    public void await() {
        try {
            thread.join();
            for (Thread t : more) {
                t.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean verified(ObjectId commit, TrustedKey key) {
        return key.fingerprint().equals(verified.get(commit));
    }

    @Override
    public CommitSignature parsed(ObjectId commit) {
        return parsed.remove(commit);
    }

    /** The keys {@code keys/<actor>.asc} in the tree of {@code commit} that parse (none when null). */
    public static List<TrustedKey> keysAt(Repository repo, ObjectId commit) throws IOException {
        List<TrustedKey> out = new ArrayList<>();
        if (commit == null) {
            return out;
        }
        try (RevWalk walk = new RevWalk(repo); ObjectReader reader = repo.newObjectReader()) {
            RevCommit c = walk.parseCommit(commit);
            try (TreeWalk keys = TreeWalk.forPath(reader, StorePaths.KEYS, c.getTree())) {
                if (keys == null || !keys.isSubtree()) {
                    return out;
                }
                try (TreeWalk tw = new TreeWalk(reader)) {
                    tw.addTree(keys.getObjectId(0));
                    while (tw.next()) {
                        if (tw.getNameString().endsWith(".asc") && tw.getRawMode(0) == FileMode.REGULAR_FILE.getBits()) {
                            try {
                                out.add(TrustedKey.parse(new String(reader.open(tw.getObjectId(0), Constants.OBJ_BLOB)
                                        .getCachedBytes(1 << 20), StandardCharsets.US_ASCII)));
                            } catch (IllegalArgumentException | org.eclipse.jgit.errors.LargeObjectException e) {
                                // not a key the audit would trust either
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    private void run(Repository source, ObjectId tip, Collection<ObjectId> haves, List<TrustedKey> keys) {
        if (keys.isEmpty()) {
            return;
        }
        try (RevWalk walk = new RevWalk(source)) {
            walk.setRetainBody(true);
            walk.markStart(walk.parseCommit(tip));
            for (ObjectId h : haves) {
                try {
                    walk.markUninteresting(walk.parseCommit(h));
                } catch (IOException | IllegalArgumentException e) {
                    // not a commit there: nothing to exclude
                }
            }
            for (RevCommit c : walk) {
                check(c.getId(), c.getRawBuffer(), keys);
            }
        } catch (IOException | RuntimeException e) {
            // a shortcut only: whatever was not verified here the audit verifies
        }
    }

    private void check(ObjectId id, byte[] bytes, List<TrustedKey> keys) {
        SHA1 h = SHA1.newInstance();
        h.update(Constants.encodedTypeString(Constants.OBJ_COMMIT));
        h.update((byte) ' ');
        h.update(Constants.encodeASCII(bytes.length));
        h.update((byte) 0);
        h.update(bytes);
        if (!id.equals(h.toObjectId())) {
            return;
        }
        RawCommit raw = RawCommit.parse(bytes);
        if (raw.signature() == null) {
            return;
        }
        CommitSignature sig = CommitSignature.parse(raw.signature());
        parsed.put(id.copy(), sig);
        for (TrustedKey k : keys) {
            if (k.holds(sig.keyId())) {
                if (k.verify(sig, raw.payload())) {
                    verified.put(id.copy(), k.fingerprint());
                }
                return;
            }
        }
    }
}
