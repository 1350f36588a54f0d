package dev.palimpsest.model;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The rule book: every rule the reference gate, input validation and the audit enforce, each with
 * the kebab-case {@link #id()} that appears in messages and JSON, a one-line description, and where
 * it is checked ({@link Where}). A rule checked at both ends is reported with the same id at write
 * time and at audit time, by the same code. Immutable; {@link #ofId} never returns null.
 */
public enum Rule {
    // input and store set-up (write time)
    EMPTY_TRANSACTION("empty-transaction", Where.GATE, "a transaction or retraction names no operation"),
    EMPTY_BATCH("empty-batch", Where.GATE, "an ingest batch holds no sources, assertions, artifacts or config"),
    EMPTY_PLAN("empty-plan", Where.GATE, "a cleanup plan changes nothing"),
    INVALID_BATCH("invalid-batch", Where.GATE, "an ingest batch is malformed"),
    INVALID_FACT("invalid-fact", Where.GATE, "a fact's fields are invalid (id, kind, body, confidence)"),
    INVALID_TEXT("invalid-text", Where.GATE, "a text holds a lone UTF-16 surrogate, which UTF-8 cannot store"),
    INVALID_CONFIG("invalid-config", Where.GATE, "a configuration change is invalid"),
    INVALID_EMAIL("invalid-email", Where.GATE, "an e-mail address is malformed"),
    INVALID_ROLE("invalid-role", Where.GATE, "a key role is neither agent nor human"),
    STORE_EXISTS("store-exists", Where.GATE, "init into a path that is not absent, an empty folder or an empty bare repository"),
    KEY_PERMISSIONS("key-permissions", Where.GATE, "a secret key file or key-home folder is open to group or others"),
    REVIEWER_IS_AUTHOR("reviewer-is-author", Where.GATE, "the reviewer model is the model that wrote the claim"),
    CLAIM_NOT_VERIFIED("claim-not-verified", Where.GATE, "the quote anchor or the reviewer rejected a claim written with --verify"),
    INVALID_ARGUMENT("invalid-argument", Where.GATE, "a malformed command-line value (id, kind, actor, quote, ...)"),
    INVALID_UTF8("invalid-utf8", Where.GATE, "an input file or standard input is not valid UTF-8"),
    DAMAGED_ARGUMENT("damaged-argument", Where.GATE, "an argument a non-UTF-8 locale may have damaged"),
    FILE_UNREADABLE("file-unreadable", Where.GATE, "an input file is missing, a folder or unreadable"),
    FILE_UNWRITABLE("file-unwritable", Where.GATE, "an output path cannot be written"),
    SECRET_MATERIAL("secret-material", Where.GATE,
            "an input or a fact holds OpenPGP secret-key material, or an input file resolves into the key home"),
    NO_STORE("no-store", Where.GATE, "a write to a store that has no commit yet"),
    ALREADY_INITIALISED("already-initialised", Where.GATE, "init of a store that already has commits"),
    NO_SECRET_KEY("no-secret-key", Where.GATE, "the key home holds no secret key for the actor"),
    KEY_MISMATCH("key-mismatch", Where.GATE, "the key home's secret key is not the actor's trusted key"),
    UNKNOWN_ACTOR("unknown-actor", Where.GATE, "the actor has no trusted key at the commit the write lands on"),
    DEMO_DIR_NOT_EMPTY("demo-dir-not-empty", Where.GATE, "the demo folder exists and is not empty"),
    NOT_A_STORE("not-a-store", Where.GATE, "hooks install on a path that is not a git directory"),
    HOOK_EXISTS("hook-exists", Where.GATE, "a foreign pre-receive hook is in place (use --force)"),
    READ_ONLY_TOKEN("read-only-token", Where.GATE, "a hub caller holding a read-only token asks to write or push"),
    // the gate's operation rules
    DUPLICATE_OPERATION("duplicate-operation", Where.GATE, "one fact or key is changed twice in one transaction"),
    ALREADY_EXISTS("already-exists", Where.GATE, "assert of an id that is live"),
    NOT_LIVE("not-live", Where.GATE, "revise or retract of a retracted fact"),
    NOT_FOUND("not-found", Where.GATE, "revise, retract or revoke of something that does not exist"),
    REASON_REQUIRED("reason-required", Where.GATE, "a retraction without a reason"),
    NO_CHANGE("no-change", Where.GATE, "a revision that changes nothing"),
    NOT_AN_ARTIFACT("not-an-artifact", Where.GATE, "a receipt change on a fact that is not a merge, edge or summary"),
    CORRUPT_FILE("corrupt-file", Where.GATE, "a file the write reads does not decode"),
    CORRUPT_TARGET("corrupt-target", Where.GATE, "the pinned version of a ref's target does not decode"),
    REF_TARGET_MISSING("ref-target-missing", Where.GATE, "a ref's target does not exist at the commit it is read at"),
    PIN_NOT_CARRIED("pin-not-carried", Where.GATE, "a receipt member given with a pin the previous version did not carry"),
    KEY_EXISTS("key-exists", Where.GATE, "a key is added under a name that already has one"),
    LAST_KEY("last-key", Where.GATE, "revoking the last trusted key"),
    // claims (entity-claim facts), supersession and produced files (file-parent-not-file needs
    // history at the parent: write time only; already-superseded is replayed with an index of history)
    CLAIM_TRIPLE("claim-triple", Where.BOTH, "a claim without subject, predicate and object"),
    CLAIM_SOURCE("claim-source", Where.BOTH, "a claim without a source ref"),
    ALREADY_SUPERSEDED("already-superseded", Where.BOTH, "supersede of a fact a live fact already supersedes"),
    SELF_SUPERSESSION("self-supersession", Where.BOTH, "a fact that supersedes itself"),
    VALID_TIME_MALFORMED("valid-time-malformed", Where.BOTH,
            "a valid_from or valid_until that is not an ISO-8601 UTC instant in whole seconds (years 1 to 9999) in canonical form"),
    VALID_TIME_INVERTED("valid-time-inverted", Where.BOTH, "a validity whose valid_from is not before its valid_until"),
    INVALID_SUCCESSION("invalid-succession", Where.BOTH,
            "an invalidates or invalidated_by ref that does not join two claims on one subject and predicate in valid-time order, also after a revision of either claim's validity"),
    FILE_SOURCE_REQUIRED("file-source-required", Where.BOTH, "a produced file's record without a source ref"),
    FILE_PARENT_NOT_FILE("file-parent-not-file", Where.GATE, "a produced file's parent is not a produced file"),
    INVALID_FILE_RECORD("invalid-file-record", Where.BOTH,
            "a fact of kind file whose body is not file metadata or whose content is not in the tree"),
    // rules checked at write time and replayed by the audit
    DUPLICATE_REF("duplicate-ref", Where.BOTH, "a fact cites one target twice in one role"),
    SELF_REFERENCE("self-reference", Where.BOTH, "a fact cites itself"),
    PIN_UNKNOWN("pin-unknown", Where.BOTH, "a pinned commit does not exist or is not a commit"),
    PIN_NOT_ANCESTOR("pin-not-ancestor", Where.BOTH, "a pinned commit is not the parent or one of its ancestors"),
    QUOTE_TOO_SHORT("quote-too-short", Where.BOTH, "a quote is shorter than 12 characters (whitespace collapsed)"),
    QUOTE_NOT_FOUND("quote-not-found", Where.BOTH, "a quote is not in the pinned version's body"),
    SUBSUMES_NON_HYPOTHESIS("subsumes-non-hypothesis", Where.BOTH, "a subsumes ref whose target is not a hypothesis"),
    ASSERTION_TRIPLE("assertion-triple", Where.BOTH, "an assertion without subject, predicate and object"),
    ASSERTION_SOURCE("assertion-source", Where.BOTH, "an assertion without exactly one source ref to a source"),
    RECEIPT_ON_ASSERTION("receipt-on-assertion", Where.BOTH, "an assertion carries a receipt"),
    RECEIPT_REQUIRED("receipt-required", Where.BOTH, "a merge, edge or summary without a receipt"),
    FLAT_UNFLAGGED("flat-unflagged", Where.BOTH, "a summary's whole-text receipt is not flagged flat"),
    SENTENCES_ON_NON_SUMMARY("sentences-on-non-summary", Where.BOTH, "sentences or flat on a merge or edge"),
    EDGE_TRIPLE("edge-triple", Where.BOTH, "an edge without subject, predicate and object"),
    GROUNDING_ON_PLAIN_FACT("grounding-on-plain-fact", Where.BOTH, "a triple or receipt on a fact of another kind"),
    RECEIPT_CYCLE("receipt-cycle", Where.BOTH, "receipt dependencies among artifacts form a cycle"),
    SELF_RECEIPT("self-receipt", Where.BOTH, "a receipt bundle names the artifact itself"),
    RECEIPT_MEMBER_MISSING("receipt-member-missing", Where.BOTH,
            "a receipt member neither exists before the commit nor is written by it"),
    AGENT_OVERRIDES_HUMAN("agent-overrides-human", Where.BOTH,
            "an agent key retracts or supersedes a fact whose version a human key wrote (unless agents_may grants it)"),
    AGENT_RETRACTS_SNAPSHOT("agent-retracts-snapshot", Where.BOTH,
            "an agent key retracts a dated snapshot, a fact a live fact supersedes (unless agents_may grants it)"),
    AGENTS_MAY_HUMAN_ONLY("agents-may-human-only", Where.BOTH,
            "an agent key changes agents_may in palimpsest.yaml (only a human key may)"),
    INVALID_KEY("invalid-key", Where.BOTH, "a key that is not v4 Ed25519, or whose record disagrees with it"),
    KEY_IN_USE("key-in-use", Where.BOTH, "a key trusted under two actor names"),
    // audit only: the commit object
    UNSIGNED("unsigned", Where.AUDIT, "the commit has no gpgsig signature"),
    MALFORMED_SIGNATURE("malformed-signature", Where.AUDIT, "the signature does not parse, or there are several"),
    BAD_SIGNATURE("bad-signature", Where.AUDIT, "the signature does not match the commit"),
    UNTRUSTED_SIGNER("untrusted-signer", Where.AUDIT, "signed by a key not trusted at the parent"),
    IDENTITY_MISMATCH("identity-mismatch", Where.AUDIT, "author, committer, signer and key e-mail disagree"),
    NOT_LINEAR("not-linear", Where.AUDIT, "a commit with more than two parents"),
    REMOTE_REJECTED("remote-rejected", Where.GATE, "a remote refused a push (e.g. its pre-receive hook)"),
    MERGE_MISMATCH("merge-mismatch", Where.AUDIT,
            "a merge commit whose tree or trailers are not the convergent merge of its two parents"),
    SIGNATURE_TIME("signature-time", Where.AUDIT,
            "the signature's creation time is more than 5 minutes from the committer time"),
    AUTHOR_TIME("author-time", Where.AUDIT, "the author time differs from the committer time"),
    TIME_ZONE("time-zone", Where.AUDIT, "an author or committer zone other than +0000"),
    TIME_REGRESSION("time-regression", Where.AUDIT, "the commit is more than 5 minutes older than its first parent"),
    FUTURE_TIME("future-time", Where.AUDIT, "the commit is dated more than 5 minutes after the auditor's clock"),
    MALFORMED_OBJECT("malformed-object", Where.AUDIT,
            "a commit or tree object fails the checks of git fsck --strict (a NUL in a commit included)"),
    // audit only: message and files
    BAD_TRAILERS("bad-trailers", Where.AUDIT, "the Palimpsest trailers are missing or malformed"),
    TRAILER_MISMATCH("trailer-mismatch", Where.AUDIT, "an operation's trailers disagree with the tree change"),
    UNEXPLAINED_CHANGE("unexplained-change", Where.AUDIT, "a changed path no operation accounts for"),
    MALFORMED_FILE("malformed-file", Where.AUDIT, "a file that does not decode or is not canonical"),
    WRONG_PATH("wrong-path", Where.AUDIT, "a file away from the canonical path of what it holds"),
    UNEXPECTED_PATH("unexpected-path", Where.AUDIT, "a path outside the store layout"),
    UNEXPECTED_MODE("unexpected-mode", Where.AUDIT, "an entry that is not a plain file (100644)"),
    DUPLICATE_ID("duplicate-id", Where.AUDIT, "one id live at two paths"),
    KIND_CHANGED("kind-changed", Where.AUDIT, "a revision changed the fact's kind"),
    REFS_REWRITTEN("refs-rewritten", Where.AUDIT, "a revision dropped or changed the refs it carries"),
    PIN_MISMATCH("pin-mismatch", Where.AUDIT, "a pinned commit did not write the pinned blob of the target"),
    UNPINNED_REF("unpinned-ref", Where.AUDIT, "a ref without a pin to a fact not asserted in the same commit"),
    RETRACTION_INCONSISTENT("retraction-inconsistent", Where.AUDIT,
            "a retraction record and the file removal disagree"),
    TOO_LARGE("too-large", Where.BOTH,
            "a file, body, quote, claim predicate, transaction or ingest file over its size limit"),
    UNREADABLE("unreadable", Where.AUDIT, "an object the audit needs is missing or corrupt"),
    INDEX_DISAGREES("index-disagrees", Where.AUDIT, "the persisted predicate index disagrees with history"),
    // forgetting (crypto-shredding) and retention
    SEALING_OFF("sealing-off", Where.GATE, "a sensitive fact or a retention deadline in a store with encrypt none"),
    PLAINTEXT_CITER("plaintext-citer", Where.BOTH,
            "a plaintext fact not marked plaintext cites or quotes sealed content (or, asserted as a merge, edge or"
                    + " summary, rests on it)"),
    FORGET_PLAINTEXT("forget-plaintext", Where.GATE, "forget of a fact with a plaintext version in history"),
    ALREADY_FORGOTTEN("already-forgotten", Where.GATE, "forget of a fact that is already forgotten"),
    FORGOTTEN("forgotten", Where.GATE, "a write or read of a forgotten fact's id or content"),
    TOMBSTONE_CLOSURE("tombstone-closure", Where.AUDIT, "a tombstone's closure misses a derivation of the fact at its parent"),
    FORGET_CASCADE("forget-cascade", Where.AUDIT, "a forget left a sealed derived artifact of its closure unforgotten"),
    TOMBSTONE_REWRITTEN("tombstone-rewritten", Where.AUDIT, "a tombstone changed or removed, or a forgotten id written again"),
    FORGET_INCONSISTENT("forget-inconsistent", Where.AUDIT, "a tombstone disagrees with the fact: file kept, or digest not its sealed last version's"),
    KEY_NOT_DESTROYED("key-not-destroyed", Where.AUDIT, "the local vault still holds the data key of a forgotten fact");

    /** Where a rule is checked. */
    public enum Where {
        /** At write time only (input validation and the gate). */
        GATE,
        /** By the audit (and so the pre-receive hook) only. */
        AUDIT,
        /** At write time and by the audit, through the same code. */
        BOTH
    }

    private static final Map<String, Rule> BY_ID = new HashMap<>();

    static {
        for (Rule r : values()) {
            BY_ID.put(r.id, r);
        }
    }

    private final String id;
    private final Where where;
    private final String description;

    Rule(String id, Where where, String description) {
        this.id = id;
        this.where = where;
        this.description = description;
    }

    /** The rule's kebab-case id, as messages and JSON show it. */
    public String id() {
        return id;
    }

    /** What is wrong when the rule is broken, in one line. */
    public String description() {
        return description;
    }

    /** Where the rule is checked. */
    public Where where() {
        return where;
    }

    /** True when the audit (and so the pre-receive hook) checks the rule on history. */
    public boolean auditChecked() {
        return where != Where.GATE;
    }

    /** True when a write is checked against the rule before anything is written. */
    public boolean gateChecked() {
        return where != Where.AUDIT;
    }

    /**
     * The rule with this id.
     *
     * @throws IllegalArgumentException when no rule has it
     */
    public static Rule ofId(String id) {
        Rule r = BY_ID.get(Objects.requireNonNull(id, "id"));
        if (r == null) {
            throw new IllegalArgumentException("no rule with id '" + id + "'");
        }
        return r;
    }

    @Override
    public String toString() {
        return id;
    }
}
