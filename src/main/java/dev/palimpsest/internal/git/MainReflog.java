package dev.palimpsest.internal.git;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.Arrival;
import dev.palimpsest.model.Remote;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.ReflogEntry;
import org.eclipse.jgit.lib.ReflogReader;

/**
 * The local record of how commits arrived on main: git's reflog of {@code refs/heads/main}
 * ({@code logs/refs/heads/main}), to which only a pull or sync ({@code palimpsest pull <remote>: fast-forward}
 * or {@code : merge}) and a hub adopting a push ({@code palimpsest merge request from <actor>: ...})
 * append, each line written while {@code main.lock} is held, as git writes it; ordinary writes keep
 * no reflog. Other lines (git's own, should someone move main with git) are ignored. The arrivals are
 * read with JGit's {@link ReflogReader} and kept until the file changes (its size or modification
 * time), so a timeline page costs one stat of the file. Local to one repository: git never
 * replicates a reflog. Thread-safe.
 */
public final class MainReflog {
    /** The reflog of main, relative to the git directory. */
    public static final String PATH = "logs/" + GitRepo.MAIN;
    private static final String PREFIX = "palimpsest ";
    private static final Pattern MESSAGE = Pattern.compile(
            "palimpsest (pull|merge request from) ([A-Za-z0-9][A-Za-z0-9._-]*): (fast-forward|merge)");

    private final GitRepo repo;
    private volatile Cached cached;

    private record Cached(long size, long modified, Map<ObjectId, Arrival> arrivals) {}

    public MainReflog(GitRepo repo) {
        this.repo = repo;
    }

    /** The message of a main update by a pull or sync from {@code remote}, before its mode. */
    public static String pull(String remote) {
        return PREFIX + "pull " + Remote.checkName(remote);
    }

    /** The message of a main update by a hub adopting a push of {@code actor}, before its mode. */
    public static String mergeRequest(ActorName actor) {
        return PREFIX + "merge request from " + actor.value();
    }

    /** The whole reflog line for a move of main by {@code arrival} ({@link #pull} or {@link #mergeRequest}). */
    public static String line(ObjectId old, ObjectId next, Instant when, String arrival, boolean merge) {
        PersonIdent who = new PersonIdent("palimpsest", "", when, java.time.ZoneOffset.UTC);
        return (old == null ? ObjectId.zeroId() : old).name() + " " + next.name() + " " + who.toExternalString()
                + "\t" + arrival + ": " + (merge ? "merge" : "fast-forward") + "\n";
    }

    /** Appends {@code line} to main's reflog (created with its folders when absent). */
    static void append(Path gitDir, String line, boolean fsync) throws IOException {
        Path log = gitDir.resolve(PATH);
        Files.createDirectories(log.getParent());
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer b = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) {
                ch.write(b);
            }
            if (fsync) {
                ch.force(true);
            }
        }
    }

    /**
     * The arrival of each commit a pull or an adopted push moved main to, by commit (the latest such
     * move of each); empty when the reflog is absent; while it is unreadable (a line half-written by
     * another process), what it last read, and it is read again on the next call.
     */
    public Map<ObjectId, Arrival> arrivals() {
        Path log = repo.gitDir().resolve(PATH);
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(log, BasicFileAttributes.class);
        } catch (IOException absent) {
            return Map.of();
        }
        Cached c = cached;
        if (c != null && c.size() == a.size() && c.modified() == a.lastModifiedTime().toMillis()) {
            return c.arrivals();
        }
        Map<ObjectId, Arrival> out = new HashMap<>();
        try {
            ReflogReader reader = repo.repository().getRefDatabase().getReflogReader(GitRepo.MAIN);
            if (reader == null) {
                return Map.of();
            }
            for (ReflogEntry e : reader.getReverseEntries()) {
                Arrival arrival = parse(e.getComment(), e.getWho().getWhenAsInstant());
                if (arrival != null) {
                    out.putIfAbsent(e.getNewId().copy(), arrival);
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return c == null ? Map.of() : c.arrivals(); // read again on the next call
        }
        Map<ObjectId, Arrival> arrivals = Map.copyOf(out);
        cached = new Cached(a.size(), a.lastModifiedTime().toMillis(), arrivals);
        return arrivals;
    }

    /** The arrival a reflog comment records; null for a comment palimpsest did not write. */
    static Arrival parse(String comment, Instant at) {
        Matcher m = MESSAGE.matcher(comment == null ? "" : comment.strip());
        if (!m.matches()) {
            return null;
        }
        try {
            return new Arrival(m.group(1).equals("pull") ? Arrival.Via.PULL : Arrival.Via.MERGE_REQUEST, m.group(2),
                    m.group(3).equals("merge") ? Arrival.Mode.MERGE : Arrival.Mode.FAST_FORWARD, at);
        } catch (IllegalArgumentException invalid) {
            return null;
        }
    }
}
