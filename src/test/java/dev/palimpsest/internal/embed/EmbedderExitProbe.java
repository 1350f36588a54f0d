package dev.palimpsest.internal.embed;

import java.util.ArrayList;
import java.util.List;

/**
 * A process that embeds on daemon threads and exits (System.exit or the SIGTERM its parent sends)
 * while they are in the model: {@code EmbedderExitProbe DELAY_MS exit|wait}.
 */
public final class EmbedderExitProbe {
    private EmbedderExitProbe() {}

    public static void main(String[] args) throws Exception {
        long delay = Long.parseLong(args[0]);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            texts.add("a sentence about entity " + i + " and what it did on day " + (i * 7));
        }
        for (int n = 0; n < 3; n++) {
            List<String> each = n < 2 ? texts : List.of(texts.get(0)); // the third asks questions: the one-text copy
            Thread t = new Thread(() -> {
                while (true) {
                    try {
                        MiniLm.instance().embed(each);
                    } catch (RuntimeException e) {
                        System.out.println("refused: " + e.getMessage());
                        return;
                    }
                }
            }, "probe-embedder-" + n);
            t.setDaemon(true);
            t.start();
        }
        System.out.println("embedding");
        System.out.flush();
        Thread.sleep(delay);
        if (args[1].equals("exit")) {
            System.exit(0);
        }
        Thread.sleep(120_000);
    }
}
