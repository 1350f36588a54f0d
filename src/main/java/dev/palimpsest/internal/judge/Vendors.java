package dev.palimpsest.internal.judge;

import java.util.Locale;
import java.util.Map;

/**
 * Which model and which vendor a model id names, to keep a reviewer apart from its author. An id is
 * {@code [backend/][vendor/]name[:variant]}; the model is its last segment, lower case, without a
 * routing variant ({@code :free}, {@code :beta}), a dated or numbered snapshot ({@code @20240620},
 * {@code -2024-08-06}, {@code -20241022}, {@code -0613}, {@code -002}) or {@code -latest}, so two
 * routes to the same weights, and two snapshots of one model, are the same model. The vendor is the segment before the name when there is one and
 * it is a known vendor, otherwise inferred from the name's family ({@code claude} is Anthropic,
 * {@code gpt}/{@code o1}/{@code o3}/{@code o4} OpenAI, ...), otherwise the first segment (the backend's
 * own vendor). Stateless; arguments must not be null.
 */
public final class Vendors {
    private static final Map<String, String> FAMILIES = Map.ofEntries(Map.entry("claude", "anthropic"),
            Map.entry("gpt", "openai"), Map.entry("o1", "openai"), Map.entry("o3", "openai"),
            Map.entry("o4", "openai"), Map.entry("gemini", "google"), Map.entry("gemma", "google"),
            Map.entry("llama", "meta-llama"), Map.entry("mistral", "mistralai"), Map.entry("mixtral", "mistralai"),
            Map.entry("qwen", "qwen"), Map.entry("deepseek", "deepseek"), Map.entry("grok", "x-ai"));
    private static final java.util.Set<String> VENDORS = java.util.Set.copyOf(FAMILIES.values());

    private Vendors() {}

    /** A snapshot suffix: a date (with or without dashes), a month-day or a three-digit revision, or "latest". */
    private static final java.util.regex.Pattern SNAPSHOT =
            java.util.regex.Pattern.compile("(?:[-@](?:\\d{4}-\\d{2}-\\d{2}|\\d{8}|\\d{4}|\\d{3}|latest))+$");

    /** The model name: the id's last segment, lower case, without its variant and snapshot suffixes. */
    public static String model(String id) {
        String s = id.strip().toLowerCase(Locale.ROOT);
        s = s.substring(s.lastIndexOf('/') + 1);
        int colon = s.indexOf(':');
        if (colon > 0) {
            s = s.substring(0, colon);
        }
        String bare = SNAPSHOT.matcher(s).replaceFirst("");
        return bare.isEmpty() ? s : bare;
    }

    /** The vendor whose model {@code id} names. */
    public static String vendor(String id) {
        String[] seg = id.strip().toLowerCase(Locale.ROOT).split("/");
        if (seg.length >= 2 && VENDORS.contains(seg[seg.length - 2])) {
            return seg[seg.length - 2];
        }
        String name = model(id);
        for (Map.Entry<String, String> e : FAMILIES.entrySet()) {
            if (name.startsWith(e.getKey() + "-") || name.equals(e.getKey())
                    || (e.getKey().length() == 2 && name.startsWith(e.getKey()))) {
                return e.getValue();
            }
        }
        return seg[0];
    }

    /** True when the two ids name the same model (the same weights by whatever route). */
    public static boolean sameModel(String a, String b) {
        return model(a).equals(model(b));
    }

    /** True when the two ids reach models of one vendor (correlated training lineage). */
    public static boolean sameVendor(String a, String b) {
        return vendor(a).equals(vendor(b));
    }
}
