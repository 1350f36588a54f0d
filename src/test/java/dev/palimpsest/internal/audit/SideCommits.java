package dev.palimpsest.internal.audit;

import dev.palimpsest.api.KeyHome;
import dev.palimpsest.model.CommitId;
import java.nio.file.Path;

/** Forges, for tests outside this package, a signed commit on a side line that main never reaches. */
public final class SideCommits {
    private SideCommits() {}

    /** A commit whose parent is main's tip, left off main: a real commit that is no ancestor of main. */
    public static CommitId sideOf(Path gitDir, Path home) throws Exception {
        return CommitId.of(Forge.by(gitDir, new KeyHome(home), "alice").put("facts/x", "x").trailers("alice")
                .commit(false).name());
    }

    /** Forces onto main a signed commit replacing fact {@code id}'s file (a claim) with {@code content}. */
    public static CommitId corruptClaim(Path gitDir, Path home, dev.palimpsest.model.FactId id, String content)
            throws Exception {
        return CommitId.of(Forge.by(gitDir, new KeyHome(home), "alice").put(ForgedCases.path(id,
                dev.palimpsest.model.Kind.CLAIM), content).trailers("alice", "revise", "Palimpsest-Fact", id.value())
                .commit().name());
    }
}
