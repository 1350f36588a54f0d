package dev.palimpsest.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Text with a lone UTF-16 surrogate is found, named and refused by every fact that would store it. */
class TextTest {
    private static final FactId ID = FactId.of("f");

    @Test
    void aLoneSurrogateIsFoundAndAPairIsNot() {
        assertThatThrownBy(() -> Text.findLoneSurrogate(null)).isInstanceOf(NullPointerException.class);
        assertThat(Text.findLoneSurrogate("")).isEmpty();
        assertThat(Text.findLoneSurrogate("plain café 日本 \ud83d\ude00")).isEmpty();
        assertThat(Text.findLoneSurrogate("a\ud800")).hasValue(1);
        assertThat(Text.findLoneSurrogate("\udc00a")).hasValue(0);
        assertThat(Text.findLoneSurrogate("\ud83d\ude00\ude00")).hasValue(2);
        assertThat(Text.findLoneSurrogate("\ud83d\ud83d\ude00")).hasValue(0);
        assertThat(Text.findProblem("the body", "ok")).isEmpty();
        assertThat(Text.findProblem("the body", "ab\ud800")).hasValue("the body holds a lone UTF-16 surrogate U+D800 at"
                + " index 2, which UTF-8 cannot store; send well-formed Unicode");
        assertThat(Text.require("x", "fine")).isEqualTo("fine");
        assertThatThrownBy(() -> Text.require("x", "\udfff")).isInstanceOf(InvalidTextException.class)
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("U+DFFF");
    }

    @Test
    void aFactRefusesALoneSurrogateInAnyTextItStores() {
        assertThatThrownBy(() -> new Fact(ID, Kind.CLAIM, "a\ud800b", null, List.of()))
                .isInstanceOf(InvalidTextException.class).hasMessageStartingWith("fact f: body holds");
        Ref quoted = new Ref(FactId.of("s"), RefRole.CITES, null, null, "a quote \udc00 here");
        assertThatThrownBy(() -> new Fact(ID, Kind.CLAIM, "ok", null, List.of(quoted)))
                .isInstanceOf(InvalidTextException.class).hasMessageContaining("quote of the ref to s");
        assertThatThrownBy(() -> new Fact(ID, Kind.ENTITY_CLAIM, "ok", null, List.of(), null,
                Grounding.triple("s", "p", "o\ud800"))).isInstanceOf(InvalidTextException.class)
                .hasMessageContaining("object");
        Grounding reviewed = Grounding.triple("s", "p", "o").withReview(new ClaimReview("m", true, "why\ud800"));
        assertThatThrownBy(() -> new Fact(ID, Kind.ENTITY_CLAIM, "ok", null, List.of(), null, reviewed))
                .isInstanceOf(InvalidTextException.class).hasMessageContaining("review reason");
        assertThat(new Fact(ID, Kind.CLAIM, "x\u0000y \ud83d\ude00", null, List.of()).body())
                .isEqualTo("x\u0000y \ud83d\ude00");
    }
}
