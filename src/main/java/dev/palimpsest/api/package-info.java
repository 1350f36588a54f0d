/** The public Java API: open or initialise a store, write through transactions, read at any commit. */
package dev.palimpsest.api;
