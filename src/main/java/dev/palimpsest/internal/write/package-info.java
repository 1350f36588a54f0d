/** The one write path: operations checked by the reference gate, then landed as one signed commit. */
package dev.palimpsest.internal.write;
