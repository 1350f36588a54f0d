package dev.palimpsest.it;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Builds objects in a repository with git's own plumbing, as a tamperer would: trees written
 * entry by entry with {@code git hash-object -t tree --literally} (any mode string, duplicate
 * names), and commits with chosen idents and dates, signed by a key through {@code gpg} (optionally
 * with a faked signature time) and written with {@code git hash-object -t commit}.
 */
final class GitPlumbing {
    private record Entry(String mode, String name, byte[] id) {
        String sortName() {
            return mode.equals("40000") ? name + "/" : name;
        }
    }

    private final Path gitDir;
    private final Map<String, String> gpgEnv;

    GitPlumbing(Path gitDir, Path gnupgHome) {
        this.gitDir = gitDir;
        this.gpgEnv = Map.of("GNUPGHOME", gnupgHome.toString());
    }

    String blob(byte[] content) {
        return write("blob", content, false);
    }

    /** {@code tree} with the entry {@code mode id} at {@code path}; {@code duplicate} keeps an entry of that name. */
    String treeWith(String tree, String path, String mode, String id, boolean duplicate) {
        List<Entry> entries = tree == null ? new ArrayList<>() : parse(GitCli.git(gitDir, "cat-file", "tree", tree)
                .ok().stdoutBytes());
        int slash = path.indexOf('/');
        String name = slash < 0 ? path : path.substring(0, slash);
        Entry old = entries.stream().filter(e -> e.name().equals(name)).findFirst().orElse(null);
        if (slash >= 0) {
            entries.remove(old);
            String sub = treeWith(old == null ? null : HexFormat.of().formatHex(old.id()), path.substring(slash + 1),
                    mode, id, duplicate);
            entries.add(new Entry("40000", name, HexFormat.of().parseHex(sub)));
        } else {
            if (!duplicate) {
                entries.remove(old);
            }
            entries.add(new Entry(mode, name, HexFormat.of().parseHex(id)));
        }
        entries.sort((a, b) -> Arrays.compareUnsigned(a.sortName().getBytes(StandardCharsets.UTF_8),
                b.sortName().getBytes(StandardCharsets.UTF_8)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Entry e : entries) {
            out.writeBytes((e.mode() + " " + e.name()).getBytes(StandardCharsets.UTF_8));
            out.write(0);
            out.writeBytes(e.id());
        }
        return write("tree", out.toByteArray(), true);
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

    private static List<Entry> parse(byte[] t) {
        List<Entry> out = new ArrayList<>();
        int pos = 0;
        while (pos < t.length) {
            int sp = indexOf(t, (byte) ' ', pos);
            int nul = indexOf(t, (byte) 0, sp);
            out.add(new Entry(new String(t, pos, sp - pos, StandardCharsets.US_ASCII),
                    new String(t, sp + 1, nul - sp - 1, StandardCharsets.UTF_8), Arrays.copyOfRange(t, nul + 1,
                            nul + 21)));
            pos = nul + 21;
        }
        return out;
    }

    private static int indexOf(byte[] b, byte x, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        throw new IllegalArgumentException("truncated tree");
    }
}
