package dev.palimpsest.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "bench", description = "Run benchmarks.")
final class BenchCommand extends Context implements Callable<Integer> {
    @Override
    public Integer call() {
        return Main.OK;
    }
}
