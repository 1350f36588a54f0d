package dev.palimpsest.internal.receipts;

import dev.palimpsest.internal.git.StaleFiles;
import dev.palimpsest.internal.yaml.Ontology;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.CRC32;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The persisted entailer state, {@code <git-dir>/palimpsest-index/entail-v1.state}: an
 * {@link Entailer}'s applied state for the live assertions of one commit, with the fingerprint of the
 * ontology it was computed under, so that entailment in a new process starts from it and applies only
 * what changed since that commit. A cache: it may be deleted at any time (the next run recomputes
 * from scratch). The format is in store-layout.md ("The entailment state"): a header, a payload
 * (commit, fingerprint, string table, ranked triples, assertions) and a CRC-32 over both; a file
 * that does not check out is ignored. Written whole to a temporary file, then renamed over the old
 * one, so a reader never sees a partial file; any complete file is valid for the commit it names,
 * so writers need no lock. Stateless and thread-safe.
 */
public final class EntailStateFile {
    static final String DIR = "palimpsest-index";
    static final String FILE = "entail-v1.state";
    private static final int MAGIC = 0x50454E54; // "PENT"
    private static final int VERSION = 1;
    private static final int HEADER = 12;

    /** A state read back: the commit whose live assertions it reflects, the ontology's fingerprint, the entailer's state. */
    public record Saved(ObjectId commit, String ontology, Entailer.State state) {}

    private EntailStateFile() {}

    /** The state file of the store at {@code gitDir}. */
    public static Path path(Path gitDir) {
        return gitDir.resolve(DIR).resolve(FILE);
    }

    /**
     * Reads the state; null when there is no file.
     *
     * @throws IOException when the file cannot be read or does not check out (header, length, CRC, content)
     */
    public static Saved read(Path gitDir) throws IOException {
        byte[] all;
        try {
            all = Files.readAllBytes(path(gitDir));
        } catch (NoSuchFileException e) {
            return null;
        }
        return decode(all);
    }

    /** Writes {@code state} as the state for {@code commit} under {@code ontology}: a temporary file, then a rename. */
    /** Partly written states older than this were left by a process killed while writing. */
    static final java.time.Duration ABANDONED = java.time.Duration.ofMinutes(10);

    public static void write(Path gitDir, ObjectId commit, Ontology ontology, Entailer.State state) throws IOException {
        byte[] bytes = encode(commit, fingerprint(ontology), state);
        Path dir = gitDir.resolve(DIR);
        Files.createDirectories(dir);
        StaleFiles.delete(dir, FILE + ".*.tmp", ABANDONED);
        Path tmp = dir.resolve(FILE + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
        try {
            Files.write(tmp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * The fingerprint of the axioms: SHA-256 (hex) of their canonical text, one line per axiom
     * ({@code transitive p}, {@code inverse p q}, {@code subproperty p q}, {@code chain p q r}).
     */
    public static String fingerprint(Ontology o) {
        StringBuilder b = new StringBuilder();
        o.transitive().forEach(p -> b.append("transitive ").append(p).append('\n'));
        o.inverse().forEach((p, q) -> b.append("inverse ").append(p).append(' ').append(q).append('\n'));
        o.subproperty().forEach((p, q) -> b.append("subproperty ").append(p).append(' ').append(q).append('\n'));
        for (Ontology.Chain c : o.chains()) {
            b.append("chain ").append(c.of().get(0)).append(' ').append(c.of().get(1)).append(' ')
                    .append(c.implies()).append('\n');
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(b.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] encode(ObjectId commit, String fingerprint, Entailer.State state) throws IOException {
        Map<String, Integer> strings = new HashMap<>();
        List<String> table = new ArrayList<>();
        ByteArrayOutputStream body = new ByteArrayOutputStream(64 + state.triples().size() * 16);
        DataOutputStream out = new DataOutputStream(body);
        int n = state.triples().size();
        int[] refs = new int[n * 3];
        Map<Entailer.Triple, Integer> position = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            Entailer.Triple t = state.triples().get(i);
            refs[3 * i] = intern(t.s(), strings, table);
            refs[3 * i + 1] = intern(t.p(), strings, table);
            refs[3 * i + 2] = intern(t.o(), strings, table);
            position.put(t, i);
        }
        List<Map.Entry<String, Entailer.Triple>> stated = new ArrayList<>(state.assertions().entrySet());
        stated.sort(Map.Entry.comparingByKey());
        int[] ids = new int[stated.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = intern(stated.get(i).getKey(), strings, table);
        }
        byte[] raw = new byte[20];
        commit.copyRawTo(raw, 0);
        out.write(raw);
        out.write(HexFormat.of().parseHex(fingerprint));
        out.writeInt(table.size());
        for (String s : table) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            out.writeInt(b.length);
            out.write(b);
        }
        out.writeInt(n);
        for (int i = 0; i < n; i++) {
            out.writeInt(refs[3 * i]);
            out.writeInt(refs[3 * i + 1]);
            out.writeInt(refs[3 * i + 2]);
            out.writeInt(state.ranks()[i]);
        }
        out.writeInt(ids.length);
        for (int i = 0; i < ids.length; i++) {
            Integer t = position.get(stated.get(i).getValue());
            if (t == null) {
                throw new IllegalArgumentException("assertion " + stated.get(i).getKey() + " states an absent triple");
            }
            out.writeInt(ids[i]);
            out.writeInt(t);
        }
        out.flush();
        byte[] payload = body.toByteArray();
        ByteBuffer file = ByteBuffer.allocate(HEADER + payload.length + 4);
        file.putInt(MAGIC).putInt(VERSION).putInt(payload.length).put(payload);
        CRC32 crc = new CRC32();
        crc.update(file.array(), 0, HEADER + payload.length);
        file.putInt((int) crc.getValue());
        return file.array();
    }

    static Saved decode(byte[] all) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(all);
        if (all.length < HEADER + 4 || b.getInt(0) != MAGIC) {
            throw new IOException("not an entailment state file");
        }
        if (b.getInt(4) != VERSION) {
            throw new IOException("state version " + b.getInt(4) + ", expected " + VERSION);
        }
        int len = b.getInt(8);
        if (len < 0 || (long) HEADER + len + 4 != all.length) {
            throw new IOException("truncated or overlong (" + all.length + " bytes, payload " + len + ")");
        }
        CRC32 crc = new CRC32();
        crc.update(all, 0, HEADER + len);
        if ((int) crc.getValue() != b.getInt(HEADER + len)) {
            throw new IOException("checksum mismatch");
        }
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(all, HEADER, len));
            byte[] raw = new byte[20];
            in.readFully(raw);
            byte[] fp = new byte[32];
            in.readFully(fp);
            String[] table = new String[count(in, len)];
            for (int i = 0; i < table.length; i++) {
                byte[] s = new byte[count(in, len)];
                in.readFully(s);
                table[i] = new String(s, StandardCharsets.UTF_8);
            }
            int n = count(in, len);
            List<Entailer.Triple> triples = new ArrayList<>(n);
            int[] ranks = new int[n];
            for (int i = 0; i < n; i++) {
                triples.add(new Entailer.Triple(table[in.readInt()], table[in.readInt()], table[in.readInt()]));
                ranks[i] = in.readInt();
            }
            int a = count(in, len);
            Map<String, Entailer.Triple> assertions = new HashMap<>(a * 2);
            for (int i = 0; i < a; i++) {
                assertions.put(table[in.readInt()], triples.get(in.readInt()));
            }
            if (in.available() != 0) {
                throw new IOException(in.available() + " stray bytes after the assertions");
            }
            return new Saved(ObjectId.fromRaw(raw), HexFormat.of().formatHex(fp),
                    new Entailer.State(triples, ranks, assertions));
        } catch (RuntimeException e) {
            throw new IOException("malformed payload: " + e, e);
        }
    }

    private static int count(DataInputStream in, int limit) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > limit) {
            throw new IOException("implausible count " + n);
        }
        return n;
    }

    private static int intern(String s, Map<String, Integer> strings, List<String> table) {
        Integer i = strings.get(s);
        if (i == null) {
            i = table.size();
            strings.put(s, i);
            table.add(s);
        }
        return i;
    }
}
