/** Git transports for replication: remotes in the repository's config, fetch into quarantine, push of main. */
package dev.palimpsest.internal.remote;
