package dev.palimpsest.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "demo", description = "Build a demo store from the bundled example corpus.")
final class DemoCommand extends Context implements Callable<Integer> {
    @Override
    public Integer call() {
        return Main.OK;
    }
}
