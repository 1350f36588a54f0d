/** JGit plumbing: repository access, snapshots of a commit's tree, tree editing, the writer lock. */
package dev.palimpsest.internal.git;
