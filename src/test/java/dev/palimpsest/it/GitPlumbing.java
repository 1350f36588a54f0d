package dev.palimpsest.it;

import dev.palimpsest.internal.audit.RawTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;

/**
 * Builds objects in a repository with git's own plumbing, as a tamperer would: trees edited by
 * {@link RawTrees} and written with {@code git hash-object -t tree --literally} (any mode string,
 * duplicate names), and commits with chosen idents and dates, signed by a key through {@code gpg}
 * (optionally with a faked signature time) and written with {@code git hash-object -t commit}.
 */
final class GitPlumbing {
    private final Path gitDir;
    private final Map<String, String> gpgEnv;
    private final RawTrees.TreeStore trees = new RawTrees.TreeStore() {
        @Override
        public byte[] read(ObjectId id) {
            return GitCli.git(gitDir, "cat-file", "tree", id.name()).ok().stdoutBytes();
        }

        @Override
        public ObjectId write(byte[] raw) {
            return ObjectId.fromString(GitPlumbing.this.write("tree", raw, true));
        }
    };

    GitPlumbing(Path gitDir, Path gnupgHome) {
        this.gitDir = gitDir;
        this.gpgEnv = Map.of("GNUPGHOME", gnupgHome.toString());
    }

    String blob(byte[] content) {
        return write("blob", content, false);
    }

    /** {@code tree} with the entry {@code mode id} at {@code path}; {@code duplicate} keeps an entry of that name. */
    String treeWith(String tree, String path, String mode, String id, boolean duplicate) {
        try {
            return RawTrees.with(trees, ObjectId.fromString(tree), path, mode, ObjectId.fromString(id),
                    duplicate ? RawTrees.Placement.DUPLICATE : RawTrees.Placement.REPLACE).name();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A commit of {@code tree} on {@code parent} by {@code actor}, author and committer dated as
     * given ({@code <epoch seconds> <zone>}), signed with {@code key}; {@code signedAt} (epoch
     * seconds, null: the real clock) fakes gpg's clock.
     */
    String commit(String tree, String parent, String actor, String authorDate, String committerDate, String message,
            String key, Long signedAt) {
        String email = actor + "@palimpsest.local";
        String head = "tree " + tree + "\nparent " + parent + "\nauthor " + actor + " <" + email + "> " + authorDate
                + "\ncommitter " + actor + " <" + email + "> " + committerDate + "\n";
        byte[] payload = (head + "\n" + message).getBytes(StandardCharsets.UTF_8);
        List<String> gpg = new ArrayList<>(List.of("gpg", "--batch", "--quiet", "--detach-sign", "--armor", "-u", key));
        if (signedAt != null) {
            gpg.addAll(List.of("--faked-system-time", signedAt + "!", "--ignore-time-conflict"));
        }
        String sig = GitCli.run(gpgEnv, payload, 60, gpg).ok().stdout().strip();
        String commit = head + "gpgsig " + String.join("\n ", sig.split("\n", -1)) + "\n\n" + message;
        return write("commit", commit.getBytes(StandardCharsets.UTF_8), false);
    }

    /** The tree of {@code commit}. */
    String treeOf(String commit) {
        return GitCli.git(gitDir, "rev-parse", commit + "^{tree}").ok().stdout().strip();
    }

    void moveMain(String commit) {
        GitCli.git(gitDir, "update-ref", "refs/heads/main", commit).ok();
    }

    private String write(String type, byte[] content, boolean literally) {
        List<String> cmd = new ArrayList<>(List.of("git", "--git-dir=" + gitDir.toAbsolutePath(), "hash-object",
                "-t", type, "-w", "--stdin"));
        if (literally) {
            cmd.add("--literally");
        }
        return GitCli.run(GitCli.gitEnv(Map.of()), content, 60, cmd).ok().stdout().strip();
    }
}
