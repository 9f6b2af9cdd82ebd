package io.lineup.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * API dispatch (module lineup-dispatch) is a domain on the engine's public API: it knows neither
 * the server that offers it over HTTP nor the web framework, and the engine does not know it.
 */
class DispatchBoundariesTest {
  private static void check(ArchRule rule) {
    rule.check(LineupClasses.all());
  }

  @Test
  void theEngineNeverDependsOnDispatch() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.lineup.core..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.lineup.dispatch.."));
  }

  @Test
  void dispatchKnowsNeitherTheServerNorTheWebFrameworkNorTheEngineInternals() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.lineup.dispatch..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.lineup.server..", "io.javalin..", "io.lineup.core.internal.."));
  }

  @Test
  void dispatchPackagesFormNoCycle() {
    check(slices().matching("io.lineup.dispatch(**)").should().beFreeOfCycles());
  }
}
