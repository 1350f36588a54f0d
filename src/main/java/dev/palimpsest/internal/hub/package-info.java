/**
 * The hub's internals: bearer tokens kept as hashes in the key home ({@link dev.palimpsest.internal.hub.Tokens}),
 * and git smart HTTP over a store's repository whose pushes pass the same audit as a pull
 * ({@link dev.palimpsest.internal.hub.GitHttp}).
 */
package dev.palimpsest.internal.hub;
