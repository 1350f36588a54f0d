/** OpenPGP keys, commit signing and signature verification (BouncyCastle behind our own interfaces). */
package dev.palimpsest.internal.crypto;
