package dev.palimpsest.cli;

import dev.palimpsest.internal.hooks.HookInstaller;
import dev.palimpsest.model.RejectedException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "hooks", description = "Git hooks that guard a store served as a git remote.",
        subcommands = {HooksCommand.Install.class})
final class HooksCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new Main.UsageException("name a subcommand: hooks install");
    }

    @Command(name = "install", description = "Install hooks/pre-receive: pushes to main must pass the audit.")
    static final class Install extends Context implements Callable<Integer> {
        @Option(names = "--force", description = "Replace a pre-receive hook that is not Palimpsest's.")
        boolean force;

        @Override
        public Integer call() throws Exception {
            HookInstaller.Launch launch = HookInstaller.Launch.current(Main.class);
            Path gitDir = storePath();
            Path hook;
            try {
                hook = HookInstaller.install(gitDir, launch, force);
            } catch (RejectedException e) {
                boolean noStore = e.violations().size() == 1 && "not-a-store".equals(Failure.rule(e.violations().get(0)));
                throw noStore ? new Main.NoStoreException("no store at " + gitDir + " (not a git directory)") : e;
            }
            if (json()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("hook", hook.toString());
                m.put("java", launch.java().toString());
                m.put("jar", launch.jar() == null ? null : launch.jar().toString());
                printJson(m);
            } else {
                out().println("installed " + hook + " (runs " + (launch.jar() != null ? launch.jar()
                        : "the class path of this process") + ")");
            }
            return Main.OK;
        }
    }
}
