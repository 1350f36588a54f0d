package dev.palimpsest.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/** One CLI invocation in-process: its exit code, standard output and standard error. */
public record Run(int code, String out, String err) {
    /** Standard output read as JSON. */
    public JsonNode json() throws Exception {
        return new ObjectMapper().readTree(out);
    }

    /** Runs the command line as given. */
    public static Run of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    /** Runs the command line with {@code --store} and {@code --home} appended. */
    public static Run inStore(String store, String home, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--store", store, "--home", home));
        return of(all.toArray(String[]::new));
    }
}
