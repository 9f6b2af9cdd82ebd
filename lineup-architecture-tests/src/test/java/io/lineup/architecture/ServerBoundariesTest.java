package io.lineup.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;
import io.lineup.dispatch.DispatchException;
import io.lineup.dispatch.EndpointKey;
import io.lineup.rooms.RoomException;
import io.lineup.server.LineupServer;
import io.lineup.server.Main;
import org.junit.jupiter.api.Test;

/**
 * The server's faces (queues over HTTP, dispatch, the waiting rooms) and what each may know of the
 * others. Dispatch and the waiting rooms are modules of their own, with their rules in {@link
 * DispatchBoundariesTest} and {@link RoomsBoundariesTest}; here, nothing but their handlers (and
 * the error mapping, for their errors) knows them.
 */
class ServerBoundariesTest {
  private static void check(ArchRule rule) {
    rule.check(LineupClasses.all());
  }

  @Test
  void neitherTheEngineNorTheOtherFacesDependOnTheWaitingRooms() {
    check(
        noClasses()
            .that()
            .resideInAnyPackage(
                "io.lineup.core..",
                "io.lineup.dispatch..",
                "io.lineup.server.auth..",
                "io.lineup.server.metrics..",
                "io.lineup.server.redis..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.lineup.rooms.."));
  }

  @Test
  void theHttpLayerKnowsOnlyTheWaitingRoomsErrorsToAnswerThem() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.lineup.server.http..")
            .should()
            .dependOnClassesThat(
                resideInAPackage("io.lineup.rooms..").and(not(assignableTo(RoomException.class)))));
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

  @Test
  void theHttpLayerKnowsOnlyDispatchsErrorsAndEndpointNamesToAnswerThem() {
    check(
        noClasses()
            .that()
            .resideInAPackage("io.lineup.server.http..")
            .should()
            .dependOnClassesThat(
                resideInAPackage("io.lineup.dispatch..")
                    .and(not(assignableTo(DispatchException.class)))
                    .and(not(assignableTo(EndpointKey.class)))));
  }
}
