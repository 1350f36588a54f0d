/** Produced files: streaming their content into the object store and reading their records. */
package dev.palimpsest.internal.files;
