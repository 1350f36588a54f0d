/** Checks that ask a model: the quote anchor and fail-closed reviewer, judge adapters (scripted, OpenAI-compatible HTTP) and their call cache. */
package dev.palimpsest.internal.judge;
