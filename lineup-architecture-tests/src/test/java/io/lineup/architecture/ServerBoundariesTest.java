package io.lineup.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import io.lineup.server.LineupServer;
import io.lineup.server.Main;
import org.junit.jupiter.api.Test;

/**
 * The server's faces (queues over HTTP, dispatch, the waiting room) and what each may know of the
 * others: the room uses the engine through its API only and never a handler, and nothing but the
 * room knows the room. Dispatch, a module of its own, has its rules in {@link
 * DispatchBoundariesTest}.
 */
class ServerBoundariesTest {
  private static void check(ArchRule rule) {
    rule.check(LineupClasses.all());
  }

  @Test
  void neitherTheEngineNorTheOtherFacesDependOnTheWaitingRoom() {
    check(
        noClasses()
            .that()
            .resideInAnyPackage(
                "io.lineup.core..",
                "io.lineup.dispatch..",
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
                "io.lineup.core.internal..", "io.lineup.server.api..", "io.lineup.dispatch.."));
  }

  @Test
  void onlyTheEntryPointsStartTheWholeServer() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.lineup.server..")
            .and(not(belongToAnyOf(Main.class, LineupServer.class)))
            .should()
            .dependOnClassesThat()
            .haveFullyQualifiedName("io.lineup.server.LineupServer")
            .because(
                "LineupServer assembles the parts (Redis, engine, HTTP); a part that calls back"
                    + " into it can no longer be built or tested without the whole"));
  }
}
