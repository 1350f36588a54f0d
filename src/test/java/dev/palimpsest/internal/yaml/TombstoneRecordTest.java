package dev.palimpsest.internal.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.FactId;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Tombstone files: a canonical round trip, and a field of no tombstone refused by its name. */
class TombstoneRecordTest {
    @Test
    void aTombstoneReadsBackAndAFieldItDoesNotHaveIsRefusedByName() throws Exception {
        TombstoneRecord t = new TombstoneRecord(FactId.of("a"), "0".repeat(64), "erasure", ActorName.of("alice"), null,
                new TreeSet<>(List.of(FactId.of("b"))));
        byte[] bytes = TombstoneRecord.encode(t);
        assertThat(TombstoneRecord.decode(bytes, "t")).isEqualTo(t);
        byte[] extra = (new String(bytes, StandardCharsets.UTF_8) + "note: \"kept\"\n").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> TombstoneRecord.decode(extra, "t")).isInstanceOf(FormatException.class)
                .hasMessage("t: unknown field 'note'");
    }
}
