package dev.palimpsest.api;

import static dev.palimpsest.api.TestStores.ALICE;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.palimpsest.model.ActorName;
import dev.palimpsest.model.AuditProgress;
import dev.palimpsest.model.BriefRequest;
import dev.palimpsest.model.ClaimSpec;
import dev.palimpsest.model.CommitId;
import dev.palimpsest.model.FactId;
import dev.palimpsest.model.FactSpec;
import dev.palimpsest.model.Judge;
import dev.palimpsest.model.Kind;
import dev.palimpsest.model.SearchQuery;
import java.io.OutputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Guards the v2 rule "no nulls in the public API": a non-deprecated public method or constructor
 * called with null for one argument (every other argument valid) throws a {@link
 * NullPointerException} whose message starts with that parameter's name ({@code
 * Objects.requireNonNull(x, "x")}), so no v2 form can give null a meaning such as "latest" or "any".
 * Checked for every {@link CommitId} parameter in {@code dev.palimpsest.api} and in the request
 * types {@link SearchQuery} and {@link BriefRequest} (with their builders), and for every reference
 * parameter of the read facades. Deprecated v1 forms keep their null meanings and are skipped.
 */
class NoNullsInV2Test {
    /** Classes whose every reference parameter is checked, not only commits. */
    private static final Set<Class<?>> EVERY_PARAMETER = Set.of(Store.class, Claims.class, ClaimsAt.class,
            Recall.class, Derivations.class, SearchQuery.Builder.class, BriefRequest.Builder.class, Judges.class,
            Judges.OpenAi.class, ProducedFiles.Put.class);
    /** The v2 forms that replaced v1 leftovers (docs/java-api.md), by class: every reference parameter is checked. */
    private static final Map<Class<?>, Set<String>> LEFTOVERS_V2 = Map.of(
            Rederivations.class, Set.of("retractSource", "revokeRelation"),
            Replication.class, Set.of("pull", "pullAs"),
            ProducedFiles.class, Set.of("put"),
            KeyHome.class, Set.of("readRefusal"),
            dev.palimpsest.model.Text.class, Set.of("findLoneSurrogate", "findProblem"),
            ClaimSpec.class, Set.of("asSensitive", "retainedUntil"),
            dev.palimpsest.model.StoreOptions.class, Set.of("inRun", "withoutRun"));

    @TempDir
    Path dir;

    private Store store;
    private Auditor auditor;
    private final Map<Class<?>, Object> receivers = new HashMap<>();
    private final Map<Class<?>, Object> samples = new HashMap<>();

    @BeforeEach
    void openStore() throws Exception {
        store = TestStores.init(dir);
        Transaction tx = store.begin(ALICE);
        FactId source = tx.assertFact(FactSpec.of(Kind.SOURCE, "the design documents").id(FactId.of("docs")));
        tx.commit();
        CommitId head = store.head();
        auditor = Auditor.open(store.gitDir());
        receivers.put(Store.class, store);
        receivers.put(Claims.class, store.claims());
        receivers.put(ClaimsAt.class, store.claims().at(head));
        receivers.put(Recall.class, store.recall());
        receivers.put(Derivations.class, store.derivations());
        receivers.put(Receipts.class, store.receipts());
        receivers.put(ProducedFiles.class, store.files());
        receivers.put(Verification.class, store.verification());
        receivers.put(Rederivations.class, store.rederivations());
        receivers.put(Bulk.class, store.bulk());
        receivers.put(Erasure.class, store.erasure());
        receivers.put(Governance.class, store.governance());
        receivers.put(Replication.class, store.replication());
        receivers.put(Auditor.class, auditor);
        receivers.put(SearchQuery.Builder.class, SearchQuery.builder());
        receivers.put(BriefRequest.Builder.class, BriefRequest.builder());
        receivers.put(Judges.OpenAi.class, Judges.openAi("http://localhost:1", "model"));
        ProducedFiles.Put put = ProducedFiles.Put.of("report.md", dir.resolve("elsewhere"), source);
        receivers.put(ProducedFiles.Put.class, put);
        receivers.put(KeyHome.class, new KeyHome(dir.resolve("home")));
        receivers.put(ClaimSpec.class, ClaimSpec.of("svc", "times out after", "30s", source));
        receivers.put(dev.palimpsest.model.StoreOptions.class, dev.palimpsest.model.StoreOptions.defaults());
        samples.put(ProducedFiles.Put.class, put);
        samples.put(Store.class, store);
        samples.put(java.time.Duration.class, java.time.Duration.ofSeconds(1));
        samples.put(java.time.Instant.class, java.time.Instant.parse("2030-01-01T00:00:00Z"));
        samples.put(dev.palimpsest.model.TransferProgress.class, dev.palimpsest.model.TransferProgress.none());
        samples.put(CommitId.class, head);
        samples.put(FactId.class, source);
        samples.put(String.class, "docs");
        samples.put(ActorName.class, ALICE);
        samples.put(List.class, List.of());
        samples.put(Collection.class, List.of());
        samples.put(Kind.class, Kind.CLAIM);
        samples.put(Path.class, dir.resolve("elsewhere"));
        samples.put(dev.palimpsest.model.StoreOptions.class, dev.palimpsest.model.StoreOptions.defaults());
        samples.put(KeyHome.class, new KeyHome(dir.resolve("home")));
        samples.put(OutputStream.class, OutputStream.nullOutputStream());
        samples.put(AuditProgress.class, AuditProgress.none());
        samples.put(Judge.class, Judges.scripted("scripted", List.of("{\"supported\": true, \"reason\": \"ok\"}")));
        samples.put(ClaimSpec.class, ClaimSpec.of("svc", "times out after", "30s", source));
        samples.put(SearchQuery.class, SearchQuery.builder("design").build());
        samples.put(BriefRequest.class, BriefRequest.builder().entity("svc").build());
        samples.put(dev.palimpsest.model.AuditOracles.class, dev.palimpsest.model.AuditOracles.of(
                Judges.scripted("scripted", List.of("{\"supported\": true}"))));
        samples.put(dev.palimpsest.model.TrustPolicy.class, dev.palimpsest.model.TrustPolicy.DEFAULT);
        samples.put(Appendable.class, new StringBuilder());
        samples.put(int.class, 1);
        samples.put(long.class, 1L);
        samples.put(double.class, 0.25);
        samples.put(boolean.class, false);
    }

    @AfterEach
    void close() {
        auditor.close();
        store.close();
    }

    @Test
    void noV2FormOfTheApiTakesANullCommit() {
        List<Class<?>> scanned = new ArrayList<>(new ClassFileImporter()
                .withImportOption(new ImportOption.DoNotIncludeTests()).importPackages("dev.palimpsest.api").stream()
                .filter(c -> c.getPackageName().equals("dev.palimpsest.api") && c.getModifiers().contains(
                        com.tngtech.archunit.core.domain.JavaModifier.PUBLIC))
                .map(c -> (Class<?>) c.reflect()).toList());
        scanned.addAll(List.of(SearchQuery.class, SearchQuery.Builder.class, BriefRequest.class, BriefRequest.Builder.class));
        List<String> violations = new ArrayList<>();
        int checked = 0;
        for (Class<?> type : scanned) {
            for (Executable e : v2Surface(type)) {
                for (int i : referenceParameters(e, p -> p.getType() == CommitId.class)) {
                    checked++;
                    check(e, i).ifPresent(violations::add);
                }
            }
        }
        assertThat(checked).as("commit parameters checked").isGreaterThan(20);
        assertThat(violations).as("v2 forms that accept a null commit").isEmpty();
    }

    @Test
    void theReadFacadesTakeNoNullArgument() {
        List<String> violations = new ArrayList<>();
        int checked = 0;
        for (Class<?> type : EVERY_PARAMETER) {
            for (Executable e : v2Surface(type)) {
                for (int i : referenceParameters(e, p -> true)) {
                    checked++;
                    check(e, i).ifPresent(violations::add);
                }
            }
        }
        assertThat(checked).as("parameters checked").isGreaterThan(60);
        assertThat(violations).as("v2 forms that accept a null argument").isEmpty();
    }

    @Test
    void theV2FormsOfTheV1LeftoversTakeNoNullArgument() {
        List<String> violations = new ArrayList<>();
        Set<String> seen = new java.util.TreeSet<>();
        int checked = 0;
        for (Map.Entry<Class<?>, Set<String>> e : LEFTOVERS_V2.entrySet()) {
            for (Executable m : v2Surface(e.getKey())) {
                if (!e.getValue().contains(m.getName())) {
                    continue;
                }
                seen.add(e.getKey().getSimpleName() + "." + m.getName());
                for (int i : referenceParameters(m, p -> true)) {
                    checked++;
                    check(m, i).ifPresent(violations::add);
                }
            }
        }
        assertThat(seen).as("v2 forms found").hasSize(LEFTOVERS_V2.values().stream().mapToInt(Set::size).sum());
        assertThat(checked).as("parameters checked").isGreaterThan(20);
        assertThat(violations).as("v2 forms that accept a null argument").isEmpty();
    }

    @Test
    void theCheckCatchesAV1FormThatGivesNullAMeaning() throws Exception {
        Method v1 = Claims.class.getMethod("current", String.class, String.class, CommitId.class);
        assertThat(check(v1, 1)).hasValueSatisfying(v -> assertThat(v).contains("predicate").contains("returned"));
        Method contradictions = Claims.class.getMethod("contradictions", String.class, CommitId.class);
        assertThat(check(contradictions, 0)).isPresent();
        assertThat(v2Surface(Claims.class)).doesNotContain(v1, contradictions);
    }

    /** The public, non-deprecated methods and constructors declared by {@code type}, in a stable order. */
    private static List<Executable> v2Surface(Class<?> type) {
        Set<Executable> all = new LinkedHashSet<>();
        all.addAll(Arrays.asList(type.getDeclaredMethods()));
        all.addAll(Arrays.asList(type.getDeclaredConstructors()));
        return all.stream()
                .filter(e -> Modifier.isPublic(e.getModifiers()) && !e.isSynthetic()
                        && !e.isAnnotationPresent(Deprecated.class))
                .sorted(Comparator.comparing(Executable::toGenericString)).toList();
    }

    private static List<Integer> referenceParameters(Executable e, Predicate<Parameter> which) {
        List<Integer> out = new ArrayList<>();
        Parameter[] ps = e.getParameters();
        for (int i = 0; i < ps.length; i++) {
            if (!ps[i].getType().isPrimitive() && which.test(ps[i])) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * Calls {@code e} with null for parameter {@code nulled} and samples elsewhere; a description of
     * what went wrong unless it threw a NullPointerException naming that parameter.
     */
    private java.util.Optional<String> check(Executable e, int nulled) {
        Parameter[] ps = e.getParameters();
        assertThat(ps[nulled].isNamePresent()).as("parameter names are compiled in (-parameters)").isTrue();
        String where = e.getDeclaringClass().getSimpleName() + "." + e.getName() + Arrays.stream(ps)
                .map(p -> p.getType().getSimpleName() + " " + p.getName()).toList() + ", " + ps[nulled].getName()
                + " = null";
        Object[] args = new Object[ps.length];
        for (int i = 0; i < ps.length; i++) {
            if (i != nulled) {
                args[i] = samples.get(ps[i].getType());
                if (args[i] == null) {
                    return java.util.Optional.of(where + ": no sample of " + ps[i].getType().getName() + " (add one)");
                }
            }
        }
        try {
            if (e instanceof Constructor<?> c) {
                c.newInstance(args);
            } else {
                Method m = (Method) e;
                Object receiver = Modifier.isStatic(m.getModifiers()) ? null : receivers.get(m.getDeclaringClass());
                if (receiver == null && !Modifier.isStatic(m.getModifiers())) {
                    return java.util.Optional.of(where + ": no instance of " + m.getDeclaringClass().getName()
                            + " (add one)");
                }
                m.invoke(receiver, args);
            }
            return java.util.Optional.of(where + ": returned");
        } catch (InvocationTargetException thrown) {
            Throwable t = thrown.getCause();
            if (t instanceof NullPointerException && t.getMessage() != null
                    && t.getMessage().startsWith(ps[nulled].getName())) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(where + ": threw " + t);
        } catch (ReflectiveOperationException other) {
            return java.util.Optional.of(where + ": " + other);
        }
    }
}
