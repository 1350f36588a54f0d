package dev.palimpsest.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which ids are parts of a longer source, and the ids of their neighbours; ranking a few texts by relevance. */
class TurnsTest {
    @Test
    void aPartNumberAfterTheLastDotHasNeighboursWithTheSameLabelAndWidth() {
        assertThat(Turns.around("chat-7.turn-12")).containsExactly("chat-7.turn-11", "chat-7.turn-13");
        assertThat(Turns.around("conv.3")).containsExactly("conv.2", "conv.4");
        assertThat(Turns.around("log.t010")).containsExactly("log.t009", "log.t011");
        assertThat(Turns.around("log.t009")).containsExactly("log.t008", "log.t010");
        assertThat(Turns.around("note-x.0")).containsExactly("note-x.1");
        assertThat(Turns.around("a.b_7")).containsExactly("a.b_6", "a.b_8");
    }

    @Test
    void anIdWithoutADotBeforeItsNumberOrWithoutANumberIsNoPart() {
        assertThat(Turns.around("incident-4412")).isEmpty();
        assertThat(Turns.around("note-runbooks.on-call")).isEmpty();
        assertThat(Turns.around("t1")).isEmpty();
        assertThat(Turns.around("v1.2-beta")).isEmpty();
    }

    @Test
    void relevanceOrdersByBm25OverTheTextsAndKeepsTheGivenOrderForTies() {
        List<String> texts = List.of("auth-service deployed to eu-west-1", "auth-service listens on port 8080",
                "auth-service times out after 30s", "auth-service times out after 20s under load");
        assertThat(Relevance.rank(texts, t -> t, "why does it time out under load?")).containsExactly(texts.get(3),
                texts.get(2), texts.get(0), texts.get(1));
        assertThat(Relevance.rank(texts, t -> t, "the of")).isEqualTo(texts);
        assertThat(Relevance.rank(texts, t -> t, "")).isEqualTo(texts);
        assertThat(Relevance.rank(texts, t -> t, "ports")).first().isEqualTo(texts.get(1));
    }
}
