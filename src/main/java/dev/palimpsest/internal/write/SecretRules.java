package dev.palimpsest.internal.write;

import dev.palimpsest.internal.crypto.SecretMaterial;
import dev.palimpsest.model.Grounding;
import dev.palimpsest.model.RefSpec;
import dev.palimpsest.model.RejectedException;
import dev.palimpsest.model.Rule;
import dev.palimpsest.model.Sentence;
import dev.palimpsest.model.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * Rule {@code secret-material} on the text a transaction writes: no body, quote, triple part,
 * summary sentence, reason or added key may hold an OpenPGP private key block ({@link
 * SecretMaterial#inText}), whatever it came from (an option, a file, an ingest batch, the API).
 * Every violation is listed. Stateless.
 */
final class SecretRules {
    private SecretRules() {}

    static void check(List<Operation> ops) throws RejectedException {
        List<Violation> vs = new ArrayList<>();
        for (Operation op : ops) {
            if (op instanceof Operation.Assert a) {
                String fact = "fact " + a.id();
                text(vs, fact, "body", a.body());
                quotes(vs, fact, a.refs());
                grounding(vs, fact, a.grounding());
            } else if (op instanceof Operation.Revise r) {
                String fact = "fact " + r.id();
                text(vs, fact, "body", r.body());
                quotes(vs, fact, r.addRefs());
            } else if (op instanceof Operation.Reground g) {
                String fact = "fact " + g.id();
                text(vs, fact, "body", g.body());
                grounding(vs, fact, g.grounding());
                text(vs, fact, "reason", g.reason());
            } else if (op instanceof Operation.Retract r) {
                text(vs, "fact " + r.id(), "reason", r.reason());
            } else if (op instanceof Operation.Forget f) {
                text(vs, "fact " + f.id(), "reason", f.reason());
            } else if (op instanceof Operation.KeyAdd k) {
                text(vs, "key " + k.name(), "key", k.armoredPublicKey());
            }
        }
        if (!vs.isEmpty()) {
            throw new RejectedException(vs);
        }
    }

    private static void quotes(List<Violation> vs, String fact, List<RefSpec> refs) {
        for (RefSpec r : refs) {
            text(vs, fact + ", ref " + r.target(), "quote", r.quote());
        }
    }

    private static void grounding(List<Violation> vs, String fact, Grounding g) {
        text(vs, fact, "subject", g.subject());
        text(vs, fact, "predicate", g.predicate());
        text(vs, fact, "object", g.object());
        for (Sentence s : g.sentences()) {
            text(vs, fact, "sentence", s.text());
        }
    }

    private static void text(List<Violation> vs, String subject, String field, String text) {
        String found = text == null ? null : SecretMaterial.inText(text);
        if (found != null) {
            vs.add(new Violation(Rule.SECRET_MATERIAL, subject, "its " + field + " " + found
                    + "; secret keys are never stored"));
        }
    }
}
