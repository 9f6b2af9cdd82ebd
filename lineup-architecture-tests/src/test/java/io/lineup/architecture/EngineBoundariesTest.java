package io.lineup.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The engine's inside, as docs/engine.md ("Where things live") describes it: one package talks to
 * Redis, the API is the only door in, and no HTTP, JSON or metrics code runs in the engine.
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
                "io.micrometer.."));
  }

  @Test
  void theInternalsUseTheApisValuesButNeverItsRuntime() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.lineup.core.internal..")
            .should()
            .dependOnClassesThat()
            .haveFullyQualifiedName("io.lineup.core.Lineup")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("io.lineup.core.Worker")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("io.lineup.core.JobStream")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("io.lineup.core.Publisher")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("io.lineup.core.Leaser")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("io.lineup.core.Inspector"));
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
