package dev.palimpsest.internal.search;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/**
 * Counts tokens as OpenAI's {@code cl100k_base} BPE does (jtokkit): the measure of a brief's
 * budget. The vocabulary loads once, on first use. Thread-safe.
 */
public final class Tokens {
    private static volatile Encoding encoding;

    private Tokens() {}

    /** The number of cl100k_base tokens of {@code text}. */
    public static int count(String text) {
        return encoding().countTokens(text);
    }

    @dev.palimpsest.model.DoNotMutate("speed only: its checks only keep the vocabulary from loading more than once")
    private static Encoding encoding() {
        Encoding e = encoding;
        if (e == null) {
            synchronized (Tokens.class) {
                if (encoding == null) {
                    encoding = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
                }
                e = encoding;
            }
        }
        return e;
    }
}
