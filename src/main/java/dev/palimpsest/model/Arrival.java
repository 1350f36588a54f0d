package dev.palimpsest.model;

import java.time.Instant;
import java.util.Objects;

/**
 * How a commit became main's tip in this repository, as main's local reflog records it: by a pull
 * or sync from the remote {@code from} ({@link Via#PULL}), or by this hub adopting a push of the
 * actor {@code from} that it merged in ({@link Via#MERGE_REQUEST}); main moved there by fast-forward
 * or to a merge commit written then ({@code mode}), at the local time {@code at}. A reflog is local:
 * another replica of the same commit records its own arrival, or none.
 *
 * <p>Immutable and thread-safe; no component may be null, and {@code from} is a valid remote name
 * for a pull, a valid actor name for a merge request.
 */
public record Arrival(Via via, String from, Mode mode, Instant at) {
    /** What moved main: a pull (or sync) from a remote, or a hub adopting a pushed commit. */
    public enum Via {
        PULL("pull"), MERGE_REQUEST("merge-request");

        private final String value;

        Via(String value) {
            this.value = value;
        }

        /** The lower-case name, as pages and JSON show it. */
        public String value() {
            return value;
        }
    }

    /** How main moved: to the incoming commit itself, or to a merge commit of both sides. */
    public enum Mode {
        FAST_FORWARD("fast-forward"), MERGE("merge");

        private final String value;

        Mode(String value) {
            this.value = value;
        }

        /** The lower-case name, as pages, JSON and the reflog show it. */
        public String value() {
            return value;
        }
    }

    public Arrival {
        Objects.requireNonNull(via, "via");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(at, "at");
        if (via == Via.PULL) {
            Remote.checkName(from);
        } else {
            ActorName.of(from);
        }
    }
}
