package dev.palimpsest.internal.claims;

import java.util.List;
import org.eclipse.jgit.lib.ObjectId;

/**
 * What one commit of main changed for the claims index: its first parent (null for the genesis),
 * its actor, the multi-valued predicates when it changed the config (null otherwise), and the
 * events, in path order: a claim or superseding fact written, or a tracked fact removed. Immutable.
 */
record CommitRecord(ObjectId commit, ObjectId parent, String actor, List<String> multiValued, List<Event> events) {
    CommitRecord {
        events = List.copyOf(events);
        multiValued = multiValued == null ? null : List.copyOf(multiValued);
    }

    /** A change of one fact. */
    sealed interface Event permits Written, Removed {
        String id();
    }

    /** A version written: the claim it states (null when it is no claim) and the ids it supersedes. */
    record Written(String id, ClaimRecord claim, List<String> supersedes) implements Event {
        Written {
            supersedes = List.copyOf(supersedes);
        }
    }

    /** The fact's file removed (retracted). */
    record Removed(String id) implements Event {}
}
