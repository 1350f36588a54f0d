package dev.palimpsest.model;

/**
 * A model asked one question at a time: {@link #complete} sends exactly the request's messages and
 * returns the model's raw reply text, unparsed. The reviewer ({@code verify}) and the re-derivation
 * audit ({@code rederive-audit}) are built on it, so a user plugs in any model and tests use
 * scripted ones. Implementations document their own thread-safety; arguments must not be null.
 */
public interface Judge {
    /**
     * The model's identity as {@code backend/vendor/name} or any suffix of it (e.g.
     * {@code openrouter/openai/gpt-4o-mini}, {@code gpt-4o-mini}): used to refuse a reviewer that is
     * the author, to warn on a shared vendor, and as part of a cache key.
     */
    String model();

    /**
     * The raw reply to {@code request}.
     *
     * @throws PalimpsestInternalException the model could not be reached or gave no reply
     */
    String complete(JudgeRequest request);
}
