/** Forgetting: tombstones, closure anchors, the cascade to sealed derived artifacts, and cache scrubbing. */
package dev.palimpsest.internal.forget;
