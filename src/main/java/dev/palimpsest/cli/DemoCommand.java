package dev.palimpsest.cli;

import dev.palimpsest.demo.Demo;
import dev.palimpsest.model.RejectedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "demo", description = "Build a demo store from the bundled example corpus and narrate it.")
final class DemoCommand extends Context implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", defaultValue = "palimpsest-demo",
            description = "Folder for the demo (default: ./palimpsest-demo); a previous demo there is replaced.")
    Path dir;

    @Override
    public Integer call() throws Exception {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new RejectedException(TextInput.FILE_UNWRITABLE, "DIR " + dir, "is a file, not a folder");
        }
        new Demo(out()).run(dir);
        return Main.OK;
    }
}
