package dev.palimpsest.cli;

import dev.palimpsest.api.ProducedFiles;
import dev.palimpsest.api.Store;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.StoredFile;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "file", description = "Produced files: content-addressed bytes with a provenance record per name.",
        subcommands = {FileCommand.Put.class, FileCommand.Get.class, FileCommand.Versions.class, FileCommand.ListFiles.class})
final class FileCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new Main.UsageException("name a subcommand: file put | get | versions | list");
    }

    static Map<String, Object> json(StoredFile f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", f.id().value());
        m.put("name", f.name());
        m.put("sha256", f.sha256());
        m.put("media_type", f.mediaType());
        m.put("size", f.size());
        m.put("path", f.path());
        m.put("blob", f.content().hex());
        m.put("commit", f.commit().hex());
        m.put("run", f.run());
        m.put("actor", f.actor());
        m.put("live", f.live());
        return m;
    }

    @Command(name = "put", description = "Store the bytes of --file under NAME as a new version of NAME's record"
            + " (one signed commit); identical bytes are stored once.")
    static final class Put extends Context implements Callable<Integer> {
        @Mixin
        Shared.Actor actor;

        @Parameters(index = "0", paramLabel = "NAME", description = "The file's name: metadata only, never a path.")
        String name;

        @Option(names = "--file", required = true, paramLabel = "F", description = "The bytes to store (streamed).")
        Path file;

        @Option(names = "--source", required = true, paramLabel = "ID",
                description = "The fact the file was produced from (pinned; must exist).")
        String source;

        @Option(names = "--run", paramLabel = "R", description = "The agent run that produced the file.")
        String run;

        @Option(names = "--parent", paramLabel = "ID", description = "A produced file this one derives from (repeatable).")
        List<String> parents = new ArrayList<>();

        @Option(names = "--claim", paramLabel = "ID", description = "A claim the file is about (repeatable).")
        List<String> claims = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            String n = TextInput.arg("NAME", name);
            String r = run == null ? null : TextInput.arg("--run", run);
            FactId src = Parse.fact("--source", source);
            List<FactId> ps = Parse.facts("--parent", parents);
            List<FactId> cs = Parse.facts("--claim", claims);
            try (Store store = open()) {
                ProducedFiles.Put put = ProducedFiles.Put.of(n, file, src).withParents(ps).withClaims(cs);
                StoredFile f = store.files().put(Parse.actor("--actor", actor.name), r == null ? put : put.withRun(r));
                if (json()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("id", f.id().value());
                    m.put("name", f.name());
                    m.put("sha256", f.sha256());
                    m.put("media_type", f.mediaType());
                    m.put("commit", f.commit().hex());
                    printJson(m);
                } else {
                    out().println(f.id() + " " + f.sha256() + " " + f.commit().hex());
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "get", description = "Write the content of file record ID (raw bytes) to standard output or --out.")
    static final class Get extends Context implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "ID", description = "The file record (file-<16 hex>); exit 4 if none.")
        String id;

        @Option(names = "--out", paramLabel = "F", description = "Write the bytes to F instead of standard output.")
        Path outFile;

        @Mixin
        Shared.At at;

        @Override
        public Integer call() throws Exception {
            FactId fid = Parse.fact("ID", id);
            try (Store store = open()) {
                CommitId c = at(store, at);
                StoredFile f = store.files().get(fid, c);
                if (outFile == null) {
                    out().flush();
                    OutputStream os = System.out;
                    store.files().copy(f, os);
                    os.flush();
                    return Main.OK;
                }
                OutFile.write("--out", outFile, os -> store.files().copy(f, os));
                if (json()) {
                    printJson(FileCommand.json(f));
                }
            }
            return Main.OK;
        }
    }

    @Command(name = "versions", description = "List every version of NAME's record on main, oldest first; exit 4 if none.")
    static final class Versions extends Context implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME", description = "The file's name, as given to file put.")
        String name;

        @Override
        public Integer call() throws Exception {
            String n = TextInput.arg("NAME", name);
            try (Store store = open()) {
                print(store.files().versions(n));
            }
            return Main.OK;
        }

        private void print(List<StoredFile> fs) {
            FileCommand.print(this, fs);
        }
    }

    @Command(name = "list", description = "List the file records live at the commit, by name.")
    static final class ListFiles extends Context implements Callable<Integer> {
        @Mixin
        Shared.At at;

        @Override
        public Integer call() throws Exception {
            try (Store store = open()) {
                FileCommand.print(this, store.files().list(at(store, at)));
            }
            return Main.OK;
        }
    }

    static void print(Context ctx, List<StoredFile> fs) {
        if (ctx.json()) {
            List<Object> out = new ArrayList<>();
            fs.forEach(f -> out.add(json(f)));
            ctx.printJson(out);
        } else {
            for (StoredFile f : fs) {
                ctx.out().println(f.id() + " " + f.commit().hex().substring(0, 12) + " " + f.sha256().substring(0, 16)
                        + " " + f.size() + " " + f.mediaType() + " " + Render.safe(f.name()));
            }
        }
    }
}
