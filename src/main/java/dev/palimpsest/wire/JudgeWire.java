package dev.palimpsest.wire;

import dev.palimpsest.model.FactId;
import dev.palimpsest.model.Layer;
import dev.palimpsest.model.RederiveReport;
import dev.palimpsest.model.TrustPolicy;
import dev.palimpsest.model.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON objects of the checks that ask a model (a verdict of {@code verify}, the report of
 * {@code rederive-audit}) and of a trust policy, as insertion-ordered maps for a JSON mapper: the
 * same fields through the CLI's {@code --json} and the MCP server. Stateless; arguments must not be null.
 */
public final class JudgeWire {
    private JudgeWire() {}

    /** {@code accepted}, {@code anchor_ok}, {@code model_accepted} (null: not asked), {@code reason} (null: none). */
    public static Map<String, Object> verdict(Verdict v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("accepted", v.accepted());
        m.put("anchor_ok", v.anchorOk());
        m.put("model_accepted", v.modelAccepted());
        m.put("reason", v.reason());
        return m;
    }

    /** {@code flat}, {@code layers} ({@code merge}, {@code edge}, {@code summary}: trust or distrust), {@code label_free}. */
    public static Map<String, Object> policy(TrustPolicy p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("flat", p.flat().value());
        Map<String, Object> layers = new LinkedHashMap<>();
        for (Layer l : List.of(Layer.MERGE, Layer.EDGE, Layer.SUMMARY)) {
            layers.put(l.value(), p.distrusts(l) ? "distrust" : "trust");
        }
        m.put("layers", layers);
        m.put("label_free", p.labelFree());
        return m;
    }

    /**
     * {@code at}, {@code operation}, {@code targets}, {@code draws}, {@code tau}, {@code under} (the
     * policy audited) and {@code layers}: per merge, edge and summary the counts (leaky, over-deleted,
     * agree, graded, alive, dead, undecided, ungraded), the oracle, the leaky and over-deleted ids and,
     * with a second oracle, its agreement.
     */
    public static Map<String, Object> rederive(RederiveReport r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("at", r.at().hex());
        m.put("operation", r.operation().value());
        m.put("targets", r.targets());
        m.put("draws", r.draws());
        m.put("tau", r.tau());
        m.put("under", policy(r.policy()));
        Map<String, Object> layers = new LinkedHashMap<>();
        for (Layer l : List.of(Layer.MERGE, Layer.EDGE, Layer.SUMMARY)) {
            RederiveReport.LayerAudit a = r.layers().get(l);
            Map<String, Object> lm = new LinkedHashMap<>();
            lm.put("leaky", a.leaky());
            lm.put("over_deleted", a.overDeleted());
            lm.put("agree", a.agree());
            lm.put("oracle", a.oracle());
            lm.put("graded", a.graded());
            lm.put("alive", a.alive());
            lm.put("dead", a.dead());
            lm.put("undecided", a.undecided());
            lm.put("ungraded", a.ungraded());
            lm.put("leaky_ids", ids(a.leakyIds()));
            lm.put("over_deleted_ids", ids(a.overDeletedIds()));
            if (!a.agreement().oracle().equals("none")) {
                Map<String, Object> ag = new LinkedHashMap<>();
                ag.put("oracle", a.agreement().oracle());
                ag.put("both_decided", a.agreement().bothDecided());
                ag.put("agree", a.agreement().agree());
                ag.put("rate", a.agreement().rate());
                ag.put("disagree_ids", ids(a.agreement().disagreeIds()));
                lm.put("second_oracle", ag);
            }
            layers.put(l.value(), lm);
        }
        m.put("layers", layers);
        return m;
    }

    private static List<String> ids(List<FactId> ids) {
        List<String> out = new ArrayList<>();
        ids.forEach(i -> out.add(i.value()));
        return out;
    }
}
