/** Version questions over history: which version of a fact is live or navigable at a commit. */
package dev.palimpsest.internal.query;
