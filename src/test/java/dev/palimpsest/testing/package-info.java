/** Test support shared across packages: the seed convention of randomized tests. */
package dev.palimpsest.testing;
