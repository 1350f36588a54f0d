/** Canonical YAML encoding of facts, retraction records and store configuration. */
package dev.palimpsest.internal.yaml;
