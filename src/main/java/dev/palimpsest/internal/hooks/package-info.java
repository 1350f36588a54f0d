/** Installs the git hooks that guard a store served as a git remote. */
package dev.palimpsest.internal.hooks;
