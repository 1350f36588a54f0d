package dev.palimpsest.internal.receipts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.palimpsest.internal.yaml.Ontology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EntailStateFileTest {
    private static final Ontology ONTOLOGY = new Ontology(List.of("part_of"), null,
            new TreeMap<>(Map.of("activates", "regulates")), List.of());
    private static final ObjectId COMMIT = ObjectId.fromString("0123456789abcdef0123456789abcdef01234567");

    @TempDir
    Path dir;

    private static Entailer sample() {
        Entailer e = new Entailer(ONTOLOGY);
        e.addAssertion("a1", new Entailer.Triple("x", "activates", "y"));
        e.addAssertion("a2", new Entailer.Triple("y", "part_of", "z"));
        e.addAssertion("a3", new Entailer.Triple("z", "part_of", "w \u00e9"));
        e.apply();
        return e;
    }

    @Test
    void writingAStateDeletesPartlyWrittenOnesOlderThanTenMinutes() throws Exception {
        Path folder = Files.createDirectories(dir.resolve(EntailStateFile.DIR));
        Path dead = Files.write(folder.resolve(EntailStateFile.FILE + ".00000000000000aa.tmp"), new byte[100]);
        Files.setLastModifiedTime(dead, java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().minus(java.time.Duration.ofMinutes(11))));
        Path recent = Files.write(folder.resolve(EntailStateFile.FILE + ".00000000000000bb.tmp"), new byte[100]);
        EntailStateFile.write(dir, COMMIT, ONTOLOGY, sample().export());
        assertThat(dead).doesNotExist();
        assertThat(recent).exists();
        assertThat(EntailStateFile.read(dir)).isNotNull();
    }

    @Test
    void aWrittenStateReadsBackWithItsCommitFingerprintAndRanks() throws Exception {
        Entailer e = sample();
        assertThat(EntailStateFile.read(dir)).as("no file yet").isNull();
        EntailStateFile.write(dir, COMMIT, ONTOLOGY, e.export());
        EntailStateFile.Saved s = EntailStateFile.read(dir);
        assertThat(s.commit()).isEqualTo(COMMIT);
        assertThat(s.ontology()).isEqualTo(EntailStateFile.fingerprint(ONTOLOGY));
        Entailer back = Entailer.restore(ONTOLOGY, s.state());
        assertThat(back.entailed()).containsExactlyInAnyOrderElementsOf(e.entailed());
        for (Entailer.Triple t : e.entailed()) {
            assertThat(back.rank(t)).isEqualTo(e.rank(t));
        }
        assertThat(back.assertions()).isEqualTo(e.assertions());
        try (var files = Files.list(dir.resolve(EntailStateFile.DIR))) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no temporary file left")
                    .containsExactly(EntailStateFile.FILE);
        }
    }

    @Test
    void everySingleByteFlipAndEveryTruncationIsDetected() throws Exception {
        byte[] good = EntailStateFile.encode(COMMIT, EntailStateFile.fingerprint(ONTOLOGY), sample().export());
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x5a;
            int at = i;
            assertThatThrownBy(() -> EntailStateFile.decode(bad)).as("byte %d flipped", at).isInstanceOf(IOException.class);
        }
        for (int len = 0; len < good.length; len++) {
            byte[] cut = Arrays.copyOf(good, len);
            assertThatThrownBy(() -> EntailStateFile.decode(cut)).as("cut to %d", len).isInstanceOf(IOException.class);
        }
        assertThat(EntailStateFile.decode(good).commit()).isEqualTo(COMMIT);
    }

    @Test
    void theFingerprintChangesWithAnyAxiom() {
        String base = EntailStateFile.fingerprint(ONTOLOGY);
        assertThat(EntailStateFile.fingerprint(ONTOLOGY.merge(new Ontology(List.of("has_part"), null, null, null))))
                .isNotEqualTo(base);
        assertThat(EntailStateFile.fingerprint(ONTOLOGY.merge(new Ontology(null,
                new TreeMap<>(Map.of("part_of", "has_part")), null, null)))).isNotEqualTo(base);
        assertThat(EntailStateFile.fingerprint(ONTOLOGY.merge(new Ontology(null, null, null,
                List.of(new Ontology.Chain(List.of("part_of", "regulates"), "regulates")))))).isNotEqualTo(base);
        assertThat(EntailStateFile.fingerprint(new Ontology(List.of("part_of"), null,
                new TreeMap<>(Map.of("activates", "regulates")), List.of()))).isEqualTo(base);
    }
}
