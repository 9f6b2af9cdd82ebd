package io.lineup.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The boundaries docs/engine.md ("Where things live") describes, checked on the compiled classes of
 * the engine and the server (tests excluded), so a forbidden import or a package cycle fails the
 * build instead of waiting for a review.
 */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.lineup.core", "io.lineup.server");
  }

  private static void check(ArchRule rule) {
    rule.check(classes);
  }

  @Test
  void onlyTheStorageLayerTalksToLettuce() {
    check(
        noClasses()
            .that()
            .resideOutsideOfPackage("io.lineup.core.internal.store..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.lettuce.."));
  }

  @Test
  void nothingOutsideTheEngineUsesItsInternals() {
    check(
        noClasses()
            .that()
            .resideOutsideOfPackage("io.lineup.core..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.lineup.core.internal.."));
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
                "io.javalin..",
                "jakarta.servlet..",
                "org.eclipse.jetty..",
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

  @Test
  void theEnginesInternalPackagesFormNoCycle() {
    check(slices().matching("io.lineup.core.internal.(*)..").should().beFreeOfCycles());
  }

  @Test
  void theServersPackagesFormNoCycle() {
    check(slices().matching("io.lineup.server.(*)..").should().beFreeOfCycles());
  }

  @Test
  void theEngineNeverDependsOnDispatch() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.lineup.core..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.lineup.server.dispatch.."));
  }

  @Test
  void dispatchUsesTheEngineOnlyThroughItsApiAndKnowsNoHandler() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.lineup.server.dispatch..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.lineup.core.internal..", "io.lineup.server.api.."));
  }

  @Test
  void theEngineNeverDependsOnTheServer() {
    check(slices().matching("io.lineup.(*)..").should().beFreeOfCycles());
  }

  @Test
  void neitherTheEngineNorTheOtherFacesDependOnTheWaitingRoom() {
    check(
        noClasses()
            .that()
            .resideInAnyPackage(
                "io.lineup.core..",
                "io.lineup.server.dispatch..",
                "io.lineup.server.auth..",
                "io.lineup.server.http..",
                "io.lineup.server.metrics..",
                "io.lineup.server.redis..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.lineup.server.room.."));
  }

  @Test
  void theWaitingRoomUsesTheEngineOnlyThroughItsApiAndKnowsNoHandlerNorDispatch() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.lineup.server.room..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                "io.lineup.core.internal..",
                "io.lineup.server.api..",
                "io.lineup.server.dispatch.."));
  }
}
