package dev.palimpsest.internal.judge;

import dev.palimpsest.model.Judge;
import dev.palimpsest.model.JudgeRequest;
import dev.palimpsest.model.PalimpsestInternalException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A judge that answers from a script, for tests and the demo: either the given replies in order
 * (after the last: repeat it, or fail), or a function of the request. Counts its calls and keeps the
 * requests it received. Thread-safe (synchronised).
 */
public final class ScriptedJudge implements Judge {
    private final String model;
    private final List<String> replies;
    private final boolean repeat;
    private final Function<JudgeRequest, String> answer;
    private final List<JudgeRequest> received = new ArrayList<>();

    private ScriptedJudge(String model, List<String> replies, boolean repeat, Function<JudgeRequest, String> answer) {
        this.model = model;
        this.replies = replies;
        this.repeat = repeat;
        this.answer = answer;
    }

    /** Replies in order; after the last, {@code repeat} repeats it, otherwise a call fails. */
    public static ScriptedJudge of(String model, List<String> replies, boolean repeat) {
        if (replies.isEmpty()) {
            throw new IllegalArgumentException("a scripted judge needs at least one reply");
        }
        return new ScriptedJudge(model, List.copyOf(replies), repeat, null);
    }

    /** Replies computed from each request. */
    public static ScriptedJudge answering(String model, Function<JudgeRequest, String> answer) {
        return new ScriptedJudge(model, List.of(), false, answer);
    }

    @Override
    public String model() {
        return model;
    }

    @Override
    public synchronized String complete(JudgeRequest request) {
        int i = received.size();
        received.add(request);
        if (answer != null) {
            return answer.apply(request);
        }
        if (i >= replies.size() && !repeat) {
            throw new PalimpsestInternalException("scripted judge " + model + " ran out of replies after "
                    + replies.size());
        }
        return replies.get(Math.min(i, replies.size() - 1));
    }

    /** How many times the judge was called. */
    public synchronized int calls() {
        return received.size();
    }

    /** The requests received, in order. */
    public synchronized List<JudgeRequest> received() {
        return List.copyOf(received);
    }
}
