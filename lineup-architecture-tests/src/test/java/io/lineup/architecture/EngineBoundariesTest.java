package io.lineup.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The engine's inside, as docs/engine.md ("Where things live") describes it: one package talks to
 * Redis, the API is the only door in, no HTTP, JSON or metrics code runs in the engine, and the
 * runtime ({@code io.lineup.core}), its internals and its values ({@code io.lineup.core.model})
 * form layers.
 */
class EngineBoundariesTest {
  private static void check(ArchRule rule) {
    rule.check(LineupClasses.all());
  }

  @Test
  void onlyTheStorageLayerTalksToLettuce() {
    check(
        noClasses()
            .that()
            .resideOutsideOfPackages("io.lineup.core.internal.store..", "io.lineup.bench..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.lettuce..")
            .because(
                "the store is Redis's one owner; only the bench's floor scenarios, which measure"
                    + " Redis itself, talk to it directly"));
  }

  @Test
  void nothingOutsideTheEngineUsesItsInternals() {
    check(
        noClasses()
            .that()
            .resideOutsideOfPackages("io.lineup.core..", "io.lineup.bench..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.lineup.core.internal..")
            .because(
                "io.lineup.core is the engine's API; only the bench's micro-benchmarks measure the"
                    + " store's own argument builders and reply decoders"));
  }

  @Test
  void theEngineHasNoHttpJsonOrMetricsCode() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.lineup.core..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "io.lineup.server..",
                "io.lineup.client..",
                "io.javalin..",
                "jakarta.servlet..",
                "org.eclipse.jetty..",
                "java.net.http..",
                "com.fasterxml.jackson..",
                // Metrics registries stay out; the Observation API (io.micrometer.observation, a
                // facade that is a no-op without a registry) is how the engine is instrumented.
                "io.micrometer.core..",
                "io.prometheus.."));
  }

  @Test
  void theRuntimeCallsTheInternalsAndBothUseTheValuesNeverTheOtherWayRound() {
    check(
        layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("runtime")
            .definedBy("io.lineup.core")
            .layer("internals")
            .definedBy("io.lineup.core.internal..")
            .layer("values")
            .definedBy("io.lineup.core.model..")
            .whereLayer("runtime")
            .mayNotBeAccessedByAnyLayer()
            .whereLayer("internals")
            .mayOnlyBeAccessedByLayers("runtime")
            .whereLayer("values")
            .mayOnlyBeAccessedByLayers("runtime", "internals")
            .because(
                "the values and exceptions are the words both the runtime and the store speak;"
                    + " the store never calls back into the runtime that drives it"));
  }

  @Test
  void theStorageLayerDoesNotKnowTheBackgroundLoops() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.lineup.core.internal.store..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.lineup.core.internal.maintenance.."));
  }
}
