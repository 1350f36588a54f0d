package dev.palimpsest.internal.search;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/**
 * Counts tokens as OpenAI's {@code cl100k_base} BPE does (jtokkit): the measure of a brief's
 * budget. The vocabulary loads once, on first use. Thread-safe.
 */
public final class Tokens {
    private Tokens() {}

    /** The vocabulary, loaded when first used (the holder idiom). */
    private static final class Vocabulary {
        static final Encoding CL100K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    }

    /** The number of cl100k_base tokens of {@code text}. */
    public static int count(String text) {
        return Vocabulary.CL100K.countTokens(text);
    }
}
