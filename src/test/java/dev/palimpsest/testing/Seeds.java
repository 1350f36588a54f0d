package dev.palimpsest.testing;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * The one seed convention of the suite: every randomized test takes a {@link Seed} parameter
 * through this extension ({@code @ExtendWith(Seeds.class)}).
 *
 * <p>The seed is the system property {@value #PROPERTY} when given, otherwise a fresh one per run.
 * A failing test gets the seed and the command that replays it attached to its failure (and printed
 * on standard error): {@code mvn -B test -Dtest=Class#method -Dpalimpsest.seed=N}.
 */
public final class Seeds implements BeforeEachCallback, ParameterResolver, TestExecutionExceptionHandler {

    /** The system property that fixes the seed of every randomized test. */
    public static final String PROPERTY = "palimpsest.seed";

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(Seeds.class);

    /** The seed for this run: the property when set, otherwise fresh. */
    public static long current() {
        String given = System.getProperty(PROPERTY);
        if (given != null && !given.isBlank()) {
            try {
                return Long.parseLong(given.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-D" + PROPERTY + " must be a long, got '" + given + "'", e);
            }
        }
        return System.nanoTime() ^ Double.doubleToLongBits(Math.random());
    }

    static String replayHint(long seed) {
        return "-D" + PROPERTY + "=" + seed;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NS).put("seed", new Seed(current()));
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Seed.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NS).getOrComputeIfAbsent("seed", k -> new Seed(current()), Seed.class);
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        Seed seed = context.getStore(NS).get("seed", Seed.class);
        if (seed != null) {
            String test = context.getRequiredTestClass().getSimpleName() + "#" + context.getRequiredTestMethod().getName();
            String hint = "failed with seed " + seed.value() + "; replay: mvn -B test -Dtest=" + test + " "
                    + replayHint(seed.value());
            System.err.println(hint);
            failure.addSuppressed(new SeedNote(hint));
        }
        throw failure;
    }

    /** Carries the replay hint on a failure's suppressed list, so reports show it. */
    static final class SeedNote extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SeedNote(String message) {
            super(message, null, false, false);
        }
    }
}
