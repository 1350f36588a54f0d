package dev.palimpsest.internal.write;

import dev.palimpsest.internal.audit.AuditEngine;
import dev.palimpsest.internal.crypto.CommitSigner;
import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.PackObjectWriter;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.git.StagedObjects;
import dev.palimpsest.internal.git.TreeEditor;
import dev.palimpsest.internal.merge.ConvergentMerge;
import dev.palimpsest.internal.merge.MergeMessage;
import dev.palimpsest.internal.rules.TimeRules;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditViolation;
import dev.palimpsest.model.MergeRefusedException;
import dev.palimpsest.model.StoreOptions;
import dev.palimpsest.model.Violation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Deflater;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.GpgSignature;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * Writes a merge commit through the gate merge commits answer to: the convergent merge's trees and
 * the signed commit are staged in memory and checked by the audit's own checks as the audit checks
 * a merge commit (signature and trust at the first parent, identity, dates, the tree and trailers
 * recomputed as the convergent merge of the parents); they are written as one pack only when no
 * check finds a violation, else a {@link MergeRefusedException} lists every one and nothing is
 * written. Not thread-safe; used under the writer lock.
 */
final class MergeWriter {
    private final GitRepo repo;
    private final StoreOptions options;
    private final AuditEngine gate;

    MergeWriter(GitRepo repo, StoreOptions options) {
        this.repo = repo;
        this.options = options;
        this.gate = new AuditEngine(repo, AuditEngine.standardChecks(repo, false));
    }

    /** Writes the merge of {@code parent}'s commit (first parent) and {@code incoming}; returns its id. */
    ObjectId write(Snapshot parent, ObjectId incoming, ConvergentMerge.Result merged, ActorName actor,
            CommitSigner signer) throws IOException, MergeRefusedException {
        StagedObjects staged = new StagedObjects();
        ObjectId commit;
        try (ObjectReader reader = staged.reader(repo.newReader())) {
            ObjectId tree = TreeEditor.apply(reader, staged, parent.tree(), merged.edits());
            Instant theirs = commitTime(reader, incoming);
            Instant ours = commitTime(reader, parent.commit());
            Instant latest = ours == null ? theirs : theirs == null || ours.isAfter(theirs) ? ours : theirs;
            Instant now = TimeRules.commitTime(Instant.now(), latest);
            PersonIdent who = new PersonIdent(actor.value(), signer.email(), now, ZoneOffset.UTC);
            CommitBuilder cb = new CommitBuilder();
            cb.setTreeId(tree);
            cb.setParentIds(parent.commit(), incoming);
            cb.setAuthor(who);
            cb.setCommitter(who);
            cb.setMessage(MergeMessage.of(actor, parent.commit(), incoming, merged));
            cb.setGpgSignature(new GpgSignature(signer.sign(cb.build(), now).getBytes(StandardCharsets.US_ASCII)));
            commit = staged.insert(cb);
        }
        List<AuditViolation> found = gate.check(commit, staged.reader(repo.newReader()));
        if (!found.isEmpty()) {
            List<Violation> vs = new ArrayList<>(found.size());
            String subject = "merge of " + parent.commit().name() + " and " + incoming.name();
            for (AuditViolation v : found) {
                vs.add(new Violation(v.rule(), v.path() == null ? subject : subject + ": " + v.path(), v.message()));
            }
            throw new MergeRefusedException(vs);
        }
        try (PackObjectWriter ins = new PackObjectWriter(repo, repo.pool(), options.fsync(), Deflater.BEST_SPEED)) {
            staged.writeTo(ins);
            ins.flush();
        }
        return commit;
    }

    private static Instant commitTime(ObjectReader reader, ObjectId commit) throws IOException {
        PersonIdent committer = RevCommit.parse(reader.open(commit, Constants.OBJ_COMMIT).getCachedBytes())
                .getCommitterIdent();
        return committer == null ? null : committer.getWhenAsInstant();
    }
}
