package dev.palimpsest.internal.crypto;

/** Verifies detached armored OpenPGP signatures against armored public keys. Thread-safe. */
public interface SignatureVerifier {
    /** The outcome of one verification; {@code problem} is null when valid. */
    record Result(boolean valid, String signerFingerprint, String problem) {}

    Result verify(byte[] payload, String armoredSignature, String armoredPublicKey);
}
