package dev.palimpsest.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The rule book's ids are unique kebab-case, found by id, and documented in store-layout.md as checked. */
class RuleTest {
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9-]+)` \\| [^|]+ \\| (gate|audit|both) \\|$",
            Pattern.MULTILINE);

    @Test
    void everyIdIsUniqueKebabCaseAndFoundByOfId() {
        for (Rule r : Rule.values()) {
            assertThat(r.id()).matches("[a-z][a-z0-9]*(-[a-z0-9]+)*");
            assertThat(Rule.ofId(r.id())).isSameAs(r);
            assertThat(r.description()).isNotBlank();
            assertThat(r.toString()).isEqualTo(r.id());
        }
        assertThat(Arrays.stream(Rule.values()).map(Rule::id).distinct()).hasSize(Rule.values().length);
        assertThatThrownBy(() -> Rule.ofId("receipt-missing")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void storeLayoutDocumentsEveryRuleWhereItIsChecked() throws Exception {
        Matcher m = ROW.matcher(Files.readString(Path.of("store-layout.md")));
        Map<String, String> documented = new TreeMap<>();
        while (m.find()) {
            documented.put(m.group(1), m.group(2));
        }
        Map<String, String> book = Arrays.stream(Rule.values()).collect(Collectors.toMap(Rule::id,
                r -> r.where().name().toLowerCase(java.util.Locale.ROOT), (a, b) -> a, TreeMap::new));
        assertThat(documented).isEqualTo(book);
    }
}
