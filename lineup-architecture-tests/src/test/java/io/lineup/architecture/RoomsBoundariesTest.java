package io.lineup.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.Test;

/**
 * The waiting rooms (module lineup-rooms) are a typed Java API on the engine: they use the engine
 * through its public API only, and know nothing of the server or HTTP, which adapts them at its
 * edge.
 */
class RoomsBoundariesTest {
  @Test
  void theRoomsKnowNeitherTheServerNorHttpNorTheEnginesInternals() {
    noClasses()
        .that()
        .resideInAPackage("io.lineup.rooms..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.lineup.server..", "io.javalin..", "io.lineup.core.internal..")
        .check(LineupClasses.all());
  }

  @Test
  void theRoomsPackagesHaveNoCycles() {
    slices()
        .matching("io.lineup.rooms.(**)")
        .should()
        .beFreeOfCycles()
        .allowEmptyShould(true)
        .check(LineupClasses.all());
  }
}
