package dev.palimpsest.internal.embed;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.palimpsest.model.Embedder;
import dev.palimpsest.model.EmbedderUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The bundled sentence model, all-MiniLM-L6-v2 quantized to 8 bits (384 dimensions, at most 256
 * word pieces a text; longer texts are cut), run in-process on the CPU by ONNX Runtime with the
 * model's own Hugging Face tokenizer, both read from the class path. Each vector is the mean of its
 * tokens' last hidden states, scaled to unit length, as the model was trained.
 *
 * <p>The model is loaded twice, each on first use (about a second each), and stays loaded for the
 * life of the process: one copy embeds one text at a time on one core (a question, a one-fact
 * write), so that a search runs its words on the other core meanwhile; the other embeds lists of
 * texts using every core, in runs of up to {@value #BATCH} texts of near lengths, padded to the
 * longest (padding is masked out). The quantized model scales its activations per run, so a text's vector moves
 * slightly (cosine above 0.99 measured) with what it is embedded beside; the same run always gives
 * the same vectors, and the store's vector cache keeps the first vector of each content.
 *
 * <p>Thread-safe: each copy runs one call at a time, so a question never waits behind a batch.
 */
public final class MiniLm implements Embedder {
    /** Texts per model run. */
    static final int BATCH = 32;
    /**
     * How much longer, in word pieces, a run's longest text may be than its shortest (the others are
     * padded to it): fewer, fuller runs embed 100 texts of 10 to 20 word pieces in three quarters of the
     * time that runs of equal lengths took.
     */
    static final double PAD_ALLOWANCE = 1.5;
    private static final String MODEL = "all-minilm-l6-v2-q.onnx";
    private static final String TOKENIZER = "all-minilm-l6-v2-q-tokenizer.json";
    private static final int DIMENSIONS = 384;
    private static final MiniLm INSTANCE = new MiniLm();
    /** How long the process's exit waits for the runs in the model. */
    static final int EXIT_WAIT_SECONDS = 30;

    /** Loads the environment and the exit hook once. */
    private final Object envLock = new Object();
    private volatile boolean exiting;
    private volatile OrtEnvironment env;
    /** One text at a time, on one core. */
    private final Copy single = new Copy(1);
    /** Lists of texts, on every core. */
    private final Copy batches = new Copy(Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors())));

    private MiniLm() {}

    /** The process's one instance (the model is loaded once, on first use). */
    public static MiniLm instance() {
        return INSTANCE;
    }

    @Override
    public String name() {
        return Embedder.LOCAL.name();
    }

    @Override
    public int dimensions() {
        return DIMENSIONS;
    }

    /** Loads both copies of the model now (a warm-up); later calls return at once. */
    public void load() {
        single.load();
        batches.load();
    }

    /** The environment, made once with a second reference held and the exit hook added. */
    private OrtEnvironment environment() {
        synchronized (envLock) {
            if (env == null) {
                OrtEnvironment e = OrtEnvironment.getEnvironment();
                holdEnvironment();
                Runtime.getRuntime().addShutdownHook(new Thread(this::exit, "palimpsest-embedder-exit"));
                env = e;
            }
            return env;
        }
    }

    /**
     * Takes a second native reference to ONNX Runtime's environment (it counts them), so that the
     * library's shutdown hook releasing the first cannot free it under a batch in the model.
     */
    private static void holdEnvironment() {
        try {
            java.lang.reflect.Field api = Class.forName("ai.onnxruntime.OnnxRuntime").getDeclaredField("ortApiHandle");
            api.setAccessible(true);
            java.lang.reflect.Method create = OrtEnvironment.class.getDeclaredMethod("createHandle", long.class,
                    int.class, String.class);
            create.setAccessible(true);
            create.invoke(null, api.getLong(null), ai.onnxruntime.OrtLoggingLevel.ORT_LOGGING_LEVEL_WARNING.getValue(),
                    OrtEnvironment.DEFAULT_NAME);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot hold ONNX Runtime's environment for a safe exit: " + e, e);
        }
    }

    /** The shutdown hook: no run starts from now on; the ones in the model finish first. */
    private void exit() {
        exiting = true;
        long deadline = System.nanoTime() + EXIT_WAIT_SECONDS * 1_000_000_000L;
        try {
            for (Copy c : List.of(single, batches)) {
                c.lock.tryLock(Math.max(0, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void refuseWhenExiting() {
        if (exiting) {
            throw new EmbedderUnavailableException("the bundled embedder " + name() + " is stopped: the process is exiting");
        }
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = MiniLm.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IOException(name + " is not on the class path");
        }
        return in;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        Copy copy = texts.size() == 1 ? single : batches;
        copy.load();
        float[][] out = new float[texts.size()][];
        try {
            Encoding[] enc;
            copy.lock.lock();
            try {
                refuseWhenExiting();
                // one text at a time: the tokenizer's batch call starts a pool of threads that keep spinning
                // after it returns, taking the cores from the model run that follows
                enc = new Encoding[texts.size()];
                for (int i = 0; i < enc.length; i++) {
                    String t = texts.get(i);
                    enc[i] = copy.tokenizer.encode(t.isBlank() ? "" : t);
                }
            } finally {
                copy.lock.unlock();
            }
            int[] lengths = new int[enc.length];
            for (int i = 0; i < enc.length; i++) {
                lengths[i] = enc[i].getIds().length;
            }
            for (List<Integer> run : runs(lengths)) {
                float[][] vs;
                copy.lock.lock();
                try {
                    refuseWhenExiting();
                    vs = copy.run(run.stream().map(i -> enc[i]).toArray(Encoding[]::new));
                } finally {
                    copy.lock.unlock();
                }
                for (int k = 0; k < run.size(); k++) {
                    out[run.get(k)] = vs[k];
                }
            }
        } catch (EmbedderUnavailableException e) {
            throw e;
        } catch (OrtException | RuntimeException e) {
            throw new EmbedderUnavailableException("the bundled embedder " + name() + " failed: " + e, e);
        }
        return java.util.Arrays.asList(out);
    }

    /**
     * The model runs for texts of {@code lengths} word pieces, each a list of indices: the texts in order of length
     * (equal lengths in their given order), cut into runs of at most {@link #BATCH} whose longest text
     * is at most {@link #PAD_ALLOWANCE} times as long as its shortest, in word pieces.
     */
    static List<List<Integer>> runs(int[] lengths) {
        Integer[] order = new Integer[lengths.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparingInt(i -> lengths[i]));
        List<List<Integer>> out = new ArrayList<>();
        List<Integer> run = new ArrayList<>();
        int first = 0;
        for (int i : order) {
            int len = lengths[i];
            if (!run.isEmpty() && (run.size() == BATCH || len > PAD_ALLOWANCE * first)) {
                out.add(run);
                run = new ArrayList<>();
            }
            if (run.isEmpty()) {
                first = len;
            }
            run.add(i);
        }
        if (!run.isEmpty()) {
            out.add(run);
        }
        return out;
    }

    /** The number of word pieces the model is given for {@code text} (its marks included, cut at 256). */
    int pieces(String text) {
        batches.load();
        batches.lock.lock();
        try {
            return batches.tokenizer.encode(text.isBlank() ? "" : text).getIds().length;
        } finally {
            batches.lock.unlock();
        }
    }

    /** One loaded copy of the model and its tokenizer; its lock is held while it loads or runs, and for good once the process exits. */
    private final class Copy {
        private final int threads;
        private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
        private OrtSession session;
        private HuggingFaceTokenizer tokenizer;
        private boolean typeIds;

        Copy(int threads) {
            this.threads = threads;
        }

        void load() {
            lock.lock();
            try {
                refuseWhenExiting();
                if (session != null) {
                    return;
                }
                System.setProperty("ai.djl.offline", "true");
                try (InputStream model = resource(MODEL); InputStream tok = resource(TOKENIZER)) {
                    OrtEnvironment e = environment();
                    OrtSession.SessionOptions o = new OrtSession.SessionOptions();
                    o.setIntraOpNumThreads(threads);
                    o.setInterOpNumThreads(1);
                    o.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
                    OrtSession s = e.createSession(model.readAllBytes(), o);
                    tokenizer = HuggingFaceTokenizer.newInstance(tok,
                            Map.of("padding", "false", "truncation", "true", "maxLength", "256", "addSpecialTokens", "true"));
                    typeIds = s.getInputNames().contains("token_type_ids");
                    session = s;
                } catch (IOException | OrtException | RuntimeException | UnsatisfiedLinkError e) {
                    throw new EmbedderUnavailableException("the bundled embedder " + name() + " cannot load: " + e, e);
                }
            } finally {
                lock.unlock();
            }
        }

        /** The vectors of {@code enc}, each padded to the longest (the mask leaves the padding out). */
        float[][] run(Encoding[] enc) throws OrtException {
            int width = 0;
            for (Encoding e : enc) {
                width = Math.max(width, e.getIds().length);
            }
            long[][] ids = new long[enc.length][width];
            long[][] mask = new long[enc.length][width];
            long[][] types = new long[enc.length][width];
            for (int i = 0; i < enc.length; i++) {
                long[] id = enc[i].getIds();
                System.arraycopy(id, 0, ids[i], 0, id.length);
                System.arraycopy(enc[i].getAttentionMask(), 0, mask[i], 0, id.length);
                System.arraycopy(enc[i].getTypeIds(), 0, types[i], 0, id.length);
            }
            Map<String, OnnxTensor> in = new HashMap<>();
            try {
                in.put("input_ids", OnnxTensor.createTensor(env, ids));
                in.put("attention_mask", OnnxTensor.createTensor(env, mask));
                if (typeIds) {
                    in.put("token_type_ids", OnnxTensor.createTensor(env, types));
                }
                try (OrtSession.Result r = session.run(in)) {
                    float[][][] hidden = (float[][][]) r.get(0).getValue();
                    float[][] out = new float[enc.length][];
                    for (int i = 0; i < enc.length; i++) {
                        out[i] = Vectors.unit(meanOf(hidden[i], mask[i]));
                    }
                    return out;
                }
            } finally {
                in.values().forEach(OnnxTensor::close);
            }
        }
    }

    /** The mean of the token states the mask keeps (padding left out). */
    private static float[] meanOf(float[][] states, long[] mask) {
        float[] v = new float[DIMENSIONS];
        int n = 0;
        for (int t = 0; t < states.length; t++) {
            if (mask[t] == 0) {
                continue;
            }
            n++;
            for (int d = 0; d < DIMENSIONS; d++) {
                v[d] += states[t][d];
            }
        }
        if (n > 0) {
            for (int d = 0; d < DIMENSIONS; d++) {
                v[d] /= n;
            }
        }
        return v;
    }
}
