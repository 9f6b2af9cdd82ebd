package io.lineup.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

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

  /**
   * The egress policy (the outbound trust boundary) sits below dispatch, so the two packages form
   * no cycle; {@link PackageCyclesTest} holds every package to that as well.
   */
  @Test
  void theEgressPolicyKnowsNothingOfDispatchAboveIt() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.lineup.dispatch.egress..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.lineup.dispatch"));
  }
}
