package dev.palimpsest.internal.index;

import org.eclipse.jgit.lib.ObjectId;

/** A ref as the index keeps it: target, role, and pin (null commit/blob for a same-transaction ref). */
public record RefPin(String target, String role, ObjectId commit, ObjectId blob) {}
