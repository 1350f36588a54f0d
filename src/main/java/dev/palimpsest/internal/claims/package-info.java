/**
 * Claims about entities: the persisted claims index (live claims, correction chains, dead ends and
 * contradictions at any commit of main), derived from git and kept up to date by every write.
 * Never imports the public API.
 */
package dev.palimpsest.internal.claims;
