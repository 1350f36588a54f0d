package dev.palimpsest.api;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One daemon thread for every open store of the process, running each store's catch-up with main
 * (see {@link Store}) twice a second, so a store nobody asks anything still drops what a forget
 * elsewhere erased within half a second. A catch-up that fails is said once through the log (slf4j) and
 * tried again at the next tick. Thread-safe.
 */
final class MainWatcher {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MainWatcher.class);
    static final long PERIOD_MILLIS = 500;
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "palimpsest-main-watch");
        t.setDaemon(true);
        return t;
    });

    private MainWatcher() {}

    /** A store's place on the timer. */
    interface Watching {
        /** Stops the ticks; a tick running now finishes first. */
        void stop();
    }

    /**
     * Runs {@code catchUp} on {@code store} every tick while the store is reachable; a store that
     * was never closed and is garbage-collected drops off the timer.
     */
    static <S> Watching watch(S store, java.util.function.Consumer<S> catchUp) {
        boolean[] said = {false};
        java.lang.ref.WeakReference<S> ref = new java.lang.ref.WeakReference<>(store);
        java.util.concurrent.atomic.AtomicReference<ScheduledFuture<?>> self = new java.util.concurrent.atomic.AtomicReference<>();
        ScheduledFuture<?> f = TIMER.scheduleWithFixedDelay(() -> {
            S s = ref.get();
            if (s == null) {
                ScheduledFuture<?> me = self.get();
                if (me != null) {
                    me.cancel(false);
                }
                return;
            }
            try {
                catchUp.accept(s);
                said[0] = false;
            } catch (RuntimeException e) {
                if (!said[0]) {
                    said[0] = true;
                    LOG.warn("could not catch up with main: {}", e.getMessage());
                }
            }
        }, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        self.set(f);
        return () -> {
            f.cancel(false);
            try {
                TIMER.submit(() -> { }).get(); // waits out a tick in flight: the timer runs one task at a time
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException(e);
            }
        };
    }
}
