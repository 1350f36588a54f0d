/** The embedders of the semantic channel (the bundled local model, an OpenAI-compatible endpoint) and the vector cache. */
package dev.palimpsest.internal.embed;
