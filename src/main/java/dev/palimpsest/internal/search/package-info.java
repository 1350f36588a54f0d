/** The search index behind recall: fact versions in Lucene with their validity intervals, ranking and briefs. */
package dev.palimpsest.internal.search;
