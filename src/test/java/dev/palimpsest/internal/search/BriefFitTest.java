package dev.palimpsest.internal.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.palimpsest.model.Brief;
import dev.palimpsest.model.Brief.Section;
import java.util.List;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;

/** Fitting a brief to a budget, with a counter of words so every boundary is exact. */
class BriefFitTest {
    static final ToIntFunction<String> WORDS = s -> s.isBlank() ? 0 : s.strip().split("\\s+").length;
    static final String TEN = " w w w w w w w w w";
    static final String A1 = "- a1" + TEN; // 11 words
    static final String A2 = "- a2" + TEN;
    static final String B1 = "- b1" + TEN;
    static final List<Section> SECTIONS = List.of(new Section("A", List.of(A1, A2)), new Section("B", List.of(B1)));
    static final String FULL = "A:\n" + A1 + "\n" + A2 + "\n\nB:\n" + B1 + "\n"; // 35 words

    @Test
    void withoutBudgetOrWhenItFitsNothingIsOmitted() {
        Brief none = BriefFit.fit(SECTIONS, 0, WORDS);
        assertThat(none.text()).isEqualTo(FULL);
        assertThat(none.omitted()).isZero();
        assertThat(none.tokens()).isEqualTo(35);
        Brief exact = BriefFit.fit(SECTIONS, 35, WORDS);
        assertThat(exact.text()).isEqualTo(FULL);
        assertThat(exact.omission()).isEmpty();
    }

    @Test
    void dropsWholeEntriesFromTheTailAndTheHeaderWithItsLastEntry() {
        String omission = Brief.omissionLine(1, 34);
        assertThat(omission).isEqualTo("(+1 line omitted to fit a 34-token budget)");
        Brief b = BriefFit.fit(SECTIONS, 34, WORDS);
        assertThat(b.text()).isEqualTo("A:\n" + A1 + "\n" + A2 + "\n" + omission + "\n");
        assertThat(b.sections()).extracting(Section::name).containsExactly("A");
        assertThat(b.omitted()).isEqualTo(1);
        assertThat(b.tokens()).isEqualTo(31);
    }

    @Test
    void oneTokenLessDropsOneEntryMore() {
        assertThat(BriefFit.fit(SECTIONS, 31, WORDS).omitted()).isEqualTo(1);
        Brief less = BriefFit.fit(SECTIONS, 30, WORDS);
        assertThat(less.omitted()).isEqualTo(2);
        assertThat(less.text()).isEqualTo("A:\n" + A1 + "\n(+2 lines omitted to fit a 30-token budget)\n");
        assertThat(less.tokens()).isEqualTo(20);
        assertThat(BriefFit.fit(SECTIONS, 20, WORDS).omitted()).isEqualTo(2);
        assertThat(BriefFit.fit(SECTIONS, 19, WORDS).omitted()).isEqualTo(3);
    }

    @Test
    void theOmissionLineIsNeverDroppedEvenOverBudget() {
        Brief b = BriefFit.fit(SECTIONS, 5, WORDS);
        assertThat(b.sections()).isEmpty();
        assertThat(b.omitted()).isEqualTo(3);
        assertThat(b.text()).isEqualTo("(+3 lines omitted to fit a 5-token budget)\n");
        assertThat(b.tokens()).isEqualTo(8);
    }

    @Test
    void aHeaderNeverStandsOverNothingAtAnyBudget() {
        for (int budget = 1; budget < 40; budget++) {
            Brief b = BriefFit.fit(SECTIONS, budget, WORDS);
            assertThat(b.sections()).allSatisfy(s -> assertThat(s.lines()).isNotEmpty());
            int kept = b.sections().stream().mapToInt(s -> s.lines().size()).sum();
            assertThat(kept + b.omitted()).isEqualTo(3);
            assertThat(b.tokens()).isEqualTo(WORDS.applyAsInt(b.text()));
            if (kept > 0) {
                assertThat(b.tokens()).isLessThanOrEqualTo(budget);
            }
        }
    }

    @Test
    void underACharacterCountEveryBudgetKeepsTheMostEntriesThatFitAndCountsWhatItRenders() {
        ToIntFunction<String> chars = String::length;
        String pad = " " + "x".repeat(25); // entries longer than the omission line's digits, so some fit
        List<String> entries = List.of("- a1" + pad, "- a2" + pad, "- a3" + pad, "- b1" + pad, "- b2" + pad, "- b3" + pad);
        List<Section> six = List.of(new Section("A", entries.subList(0, 3)), new Section("B", entries.subList(3, 6)));
        int full = chars.applyAsInt(Brief.render(six, null));
        int keptSome = 0;
        for (int budget = 1; budget < full; budget++) {
            Brief b = BriefFit.fit(six, budget, chars);
            int kept = b.sections().stream().mapToInt(s -> s.lines().size()).sum();
            assertThat(kept + b.omitted()).isEqualTo(6);
            assertThat(b.tokens()).as("budget %d", budget).isEqualTo(b.text().length());
            if (kept > 0) {
                assertThat(b.tokens()).isLessThanOrEqualTo(budget);
                keptSome++;
            }
            assertThat(Brief.render(take(entries, kept + 1), Brief.omissionLine(6 - kept - 1, budget)).length())
                    .as("budget %d", budget).isGreaterThan(budget);
        }
        assertThat(keptSome).isGreaterThan(full / 2);
    }

    @Test
    void aBudgetOfExactlyWhatTheEntriesAndTheirOmissionLineRenderKeepsThoseEntries() {
        ToIntFunction<String> chars = String::length;
        String pad = " " + "x".repeat(25);
        List<String> entries = List.of("- a1" + pad, "- a2" + pad, "- a3" + pad, "- b1" + pad, "- b2" + pad, "- b3" + pad);
        List<Section> six = List.of(new Section("A", entries.subList(0, 3)), new Section("B", entries.subList(3, 6)));
        int full = chars.applyAsInt(Brief.render(six, null));
        for (int kept = 1; kept <= 4; kept++) { // five entries and an omission line are longer than all six
            int budget = 100;
            for (int i = 0; i < 3; i++) { // the omission line names the budget: a fixed point of its own length
                budget = Brief.render(take(entries, kept), Brief.omissionLine(6 - kept, budget)).length();
            }
            assertThat(Brief.render(take(entries, kept), Brief.omissionLine(6 - kept, budget)).length())
                    .isEqualTo(budget).isLessThan(full);
            Brief exact = BriefFit.fit(six, budget, chars);
            assertThat(exact.omitted()).as("%d entries in %d characters", kept, budget).isEqualTo(6 - kept);
            assertThat(exact.tokens()).isEqualTo(budget);
            assertThat(BriefFit.fit(six, budget - 1, chars).omitted()).isEqualTo(7 - kept);
        }
    }

    @Test
    void aBudgetOfExactlyWhatTheEntriesRenderKeepsThemWhenTheOmissionCountLosesADigit() {
        ToIntFunction<String> chars = String::length;
        List<String> entries = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            entries.add("- e" + i + " " + "x".repeat(25));
        }
        List<Section> ten = List.of(new Section("E", entries));
        for (int kept = 2; kept <= 8; kept++) { // "(+10 lines" before any is kept, one digit fewer after
            List<Section> cut = List.of(new Section("E", entries.subList(0, kept)));
            int budget = 100;
            for (int i = 0; i < 3; i++) {
                budget = Brief.render(cut, Brief.omissionLine(10 - kept, budget)).length();
            }
            Brief exact = BriefFit.fit(ten, budget, chars);
            assertThat(exact.omitted()).as("%d entries in %d characters", kept, budget).isEqualTo(10 - kept);
            assertThat(exact.tokens()).isEqualTo(budget);
        }
    }

    /** The first n entries in sections A (three) and B, as fit cuts them. */
    private static List<Section> take(List<String> entries, int n) {
        return n <= 3 ? List.of(new Section("A", entries.subList(0, n)))
                : List.of(new Section("A", entries.subList(0, 3)), new Section("B", entries.subList(3, n)));
    }

    @Test
    void aLayoutsHeaderLinesAreNotEntriesAndComeAndGoWithTheEntriesUnderThem() {
        // two groups of two entries of ten words, each group under a one-word header line
        BriefFit.Layout grouped = new BriefFit.Layout() {
            @Override
            public int size() {
                return 4;
            }

            @Override
            public List<Section> render(int keep) {
                List<String> lines = new java.util.ArrayList<>();
                for (int i = 0; i < keep; i++) {
                    if (i % 2 == 0) {
                        lines.add("g" + i / 2);
                    }
                    lines.add("- e" + i + " w w w w w w w w");
                }
                return keep == 0 ? List.of() : List.of(new Section("S", lines));
            }
        };
        String w = " w w w w w w w w";
        assertThat(BriefFit.fit(grouped, 0, WORDS).tokens()).isEqualTo(43);
        Brief b = BriefFit.fit(grouped, 42, WORDS); // 3 entries and 2 headers: 33 words, the omission line 8
        assertThat(b.omitted()).isEqualTo(1);
        assertThat(b.text()).isEqualTo("S:\ng0\n- e0" + w + "\n- e1" + w + "\ng1\n- e2" + w
                + "\n(+1 line omitted to fit a 42-token budget)\n");
        Brief two = BriefFit.fit(grouped, 40, WORDS);
        assertThat(two.omitted()).isEqualTo(2);
        assertThat(two.text()).doesNotContain("g1").endsWith("- e1" + w + "\n(+2 lines omitted to fit a 40-token budget)\n");
    }

    @Test
    void theTokenCounterIsCl100k() {
        assertThat(Tokens.count("hello world")).isEqualTo(2);
        assertThat(Tokens.count("")).isZero();
    }
}
