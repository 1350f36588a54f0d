package dev.palimpsest.files;

import dev.palimpsest.api.Auditor;
import dev.palimpsest.api.ProducedFiles;
import dev.palimpsest.api.Store;
import dev.palimpsest.api.TestStores;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.StoredFile;
import java.nio.file.Path;
import java.util.List;

/** Child-JVM entry point: init a store in args[0], put the file args[1], audit; prints the SHA-256. */
public final class LargePutMain {
    private LargePutMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        try (Store s = TestStores.init(dir)) {
            StoredFile f = s.files().put(TestStores.ALICE, ProducedFiles.Put.of("big.bin", Path.of(args[1]),
                    ProducedFilesTest.source(s, "doc-big")));
            System.out.println("sha256 " + f.sha256());
            System.out.println("path " + f.path());
            try (java.io.OutputStream out = java.nio.file.Files.newOutputStream(Path.of(args[1] + ".back"))) {
                s.files().copy(s.files().get(f.id(), s.head()), out);
            }
        }
        try (Auditor a = Auditor.open(dir.resolve("store.git"))) {
            System.out.println("violations " + a.audit(AuditProgress.none()).violations().size());
        }
        System.out.println("max-heap " + Runtime.getRuntime().maxMemory());
    }
}
