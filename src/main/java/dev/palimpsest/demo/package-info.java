/** The demo: builds a small store from the bundled example corpus and narrates what it did. */
package dev.palimpsest.demo;
