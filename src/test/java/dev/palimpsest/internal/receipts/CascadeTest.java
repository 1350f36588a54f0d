package dev.palimpsest.internal.receipts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CascadeTest {
    @Test
    void aCascadeRecordNamesUpToThreeTargetsAndCountsTheRest() {
        assertThat(Cascade.targets(List.of("d1"))).isEqualTo("d1");
        assertThat(Cascade.targets(List.of("d1", "d2", "d3"))).isEqualTo("d1, d2, d3");
        assertThat(Cascade.targets(List.of("d1", "d2", "d3", "d4", "d5"))).isEqualTo("d1, d2, d3 and 2 more");
    }
}
