package dev.palimpsest.internal.merge;

import dev.palimpsest.model.ActorName;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The message of a merge commit: a readable subject, then the trailers {@code Palimpsest-Actor},
 * {@code Palimpsest-Op: merge}, {@code Palimpsest-Merge: <second parent>} and one
 * {@code Palimpsest-Lost: <fact> <losing version's commit> <winning version's commit>} per fact
 * whose concurrent revision lost, sorted by fact id, then one {@code Palimpsest-Settled: <rule> <args>}
 * per cross-fact conflict the merge settled ({@link MergeSettle}), sorted. Stateless.
 */
public final class MergeMessage {
    public static final String OP = "merge";
    /** The prefix of a settled cross-fact conflict's trailer line. */
    public static final String SETTLED = "Palimpsest-Settled: ";

    private MergeMessage() {}

    /** The message of the merge of {@code theirs} into {@code ours} by {@code actor}. */
    public static String of(ActorName actor, ObjectId ours, ObjectId theirs, ConvergentMerge.Result merged) {
        List<ConvergentMerge.Lost> lost = merged.lost();
        StringBuilder m = new StringBuilder("merge ").append(theirs.name(), 0, 12).append(" into ")
                .append(ours.name(), 0, 12);
        if (!lost.isEmpty()) {
            m.append(": ").append(lost.size()).append(lost.size() == 1 ? " concurrent revision" : " concurrent revisions")
                    .append(" lost");
        }
        if (!merged.settled().isEmpty()) {
            m.append(lost.isEmpty() ? ": " : ", ").append(merged.settled().size())
                    .append(merged.settled().size() == 1 ? " conflict" : " conflicts").append(" settled");
        }
        m.append("\n\n");
        for (String t : trailers(actor.value(), theirs, merged)) {
            m.append(t).append('\n');
        }
        return m.toString();
    }

    /** The trailer lines a merge commit by {@code actor} of {@code theirs} with {@code merged}'s outcome carries, in order. */
    public static List<String> trailers(String actor, ObjectId theirs, ConvergentMerge.Result merged) {
        List<String> out = new ArrayList<>();
        out.add("Palimpsest-Actor: " + actor);
        out.add("Palimpsest-Op: " + OP);
        out.add("Palimpsest-Merge: " + theirs.name());
        for (ConvergentMerge.Lost l : merged.lost()) {
            out.add("Palimpsest-Lost: " + l.id().value() + " " + l.loser().name() + " " + l.winner().name());
        }
        for (String s : merged.settled()) {
            out.add(SETTLED + s);
        }
        return out;
    }

    /** The trailer lines of a commit message: the lines of its last paragraph. */
    public static List<String> trailerLines(String message) {
        String body = message.endsWith("\n") ? message.substring(0, message.length() - 1) : message;
        int blank = body.lastIndexOf("\n\n");
        return blank < 0 ? List.of() : List.of(body.substring(blank + 2).split("\n", -1));
    }
}
