package dev.palimpsest.internal.audit;

import dev.palimpsest.model.Rule;
import dev.palimpsest.internal.crypto.CommitSignature;
import java.io.IOException;
import java.util.Objects;

/**
 * Rules on the commit object: two parents at most, author equal to committer, a valid signature by
 * the author's key as trusted at the first parent (for a genesis commit: the key it introduces),
 * and the author's e-mail equal to that key's. Stateless.
 */
final class CommitCheck implements AuditCheck {
    @Override
    public boolean checksMerges() {
        return true;
    }

    @Override
    public void check(AuditedCommit c) throws IOException {
        RawCommit raw = c.raw();
        if (raw.parents().size() > 2) {
            c.violation(null, Rule.NOT_LINEAR, "a commit with " + raw.parents().size()
                    + " parents; a merge commit has exactly two");
        }
        RawCommit.Ident author = raw.author();
        RawCommit.Ident committer = raw.committer();
        if (author == null || committer == null) {
            c.violation(null, Rule.IDENTITY_MISMATCH, "the author or committer header is missing or malformed");
            return;
        }
        if (!author.name().equals(committer.name()) || !author.email().equals(committer.email())) {
            c.violation(null, Rule.IDENTITY_MISMATCH, "author '" + author.name() + " <" + author.email()
                    + ">' differs from committer '" + committer.name() + " <" + committer.email() + ">'");
        }
        if (raw.signature() == null) {
            c.violation(null, Rule.UNSIGNED, "the commit carries no gpgsig signature");
            return;
        }
        if (raw.signatureHeaders() > 1) {
            c.violation(null, Rule.MALFORMED_SIGNATURE, "the commit has " + raw.signatureHeaders() + " gpgsig headers");
            return;
        }
        CommitSignature sig;
        try {
            sig = c.signature();
        } catch (IllegalArgumentException e) {
            c.violation(null, Rule.MALFORMED_SIGNATURE, e.getMessage());
            return;
        }
        c.countSignature();
        KeyTables.Table trusted = c.run().keys.at(c.reading(), c.parent() == null ? c.tree() : c.parentTree());
        String where = c.parent() == null ? "by this genesis commit" : "at the parent " + c.parent().name();
        KeyTables.Entry own = trusted.byActor().get(author.name());
        if (own != null && own.key() != null && own.key().holds(sig.keyId())) {
            if (!own.key().verify(sig, raw.payload())) {
                c.violation(null, Rule.BAD_SIGNATURE, "the signature by " + author.name() + "'s key "
                        + own.key().fingerprint() + " does not match the commit");
            } else if (!Objects.equals(own.key().email(), author.email())) {
                c.violation(null, Rule.IDENTITY_MISMATCH, "author e-mail <" + author.email() + "> is not the e-mail of "
                        + author.name() + "'s key <" + own.key().email() + ">");
            }
            return;
        }
        String other = trusted.actorByKeyId().get(sig.keyId());
        if (other != null) {
            c.violation(null, Rule.IDENTITY_MISMATCH, "signed with the key of actor " + other + ", but the author is "
                    + author.name());
            return;
        }
        StringBuilder m = new StringBuilder("signed by key ").append(sig.keyIdHex()).append(", which is not trusted ")
                .append(where);
        if (own == null) {
            m.append(": ").append(author.name()).append(" has no key there (never added, or revoked)");
        } else {
            m.append(": it is not ").append(author.name()).append("'s key ")
                    .append(own.key() == null ? "(unreadable)" : own.key().fingerprint());
        }
        c.violation(null, Rule.UNTRUSTED_SIGNER, m.toString());
    }
}
