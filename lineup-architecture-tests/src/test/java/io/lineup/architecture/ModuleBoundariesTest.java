package io.lineup.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import org.junit.jupiter.api.Test;

/**
 * Which module may use which, on the classes rather than on the Maven dependencies: a module sees
 * its dependencies' dependencies at compile time too, so Maven alone would let the command line use
 * the engine through the server it runs. Every package must belong to a module here; a new module
 * gets its layer and its allowed users. The examples, for one, use Lineup only through the client,
 * lineup-pass and the Spring Boot starter, as a user's program does; the starter uses the engine
 * and the client and nothing of the server; lineup-junit, for users' tests, starts a server and
 * hands out clients, and no module uses it. lineup-api, what every side of the HTTP API shares,
 * depends on no other module and every module may use it.
 */
class ModuleBoundariesTest {
  @Test
  void eachModuleIsUsedOnlyByTheModulesAboveIt() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .ensureAllClassesAreContainedInArchitecture()
        .layer("api")
        .definedBy("io.lineup.api..")
        .layer("redis-process")
        .definedBy("io.lineup.redis..")
        .layer("testing")
        .definedBy("io.lineup.testing..")
        .layer("pass")
        .definedBy("io.lineup.pass..")
        .layer("consumer")
        .definedBy("io.lineup.consumer..")
        .layer("core")
        .definedBy("io.lineup.core..")
        .layer("archive")
        .definedBy("io.lineup.archive..")
        .layer("rooms")
        .definedBy("io.lineup.rooms..")
        .layer("dispatch")
        .definedBy("io.lineup.dispatch..")
        .layer("server")
        .definedBy("io.lineup.server..")
        .layer("client")
        .definedBy("io.lineup.client..")
        .layer("junit")
        .definedBy("io.lineup.junit..")
        .layer("cli")
        .definedBy("io.lineup.cli..")
        .layer("bench")
        .definedBy("io.lineup.bench..")
        .layer("spring")
        .definedBy("io.lineup.spring..")
        .layer("examples")
        .definedBy("io.lineup.examples..")
        // api: every layer may use it (no rule), and it uses none
        // (theApiNeedsNothingButTheJdkAndJacksonsAnnotations).
        .whereLayer("redis-process")
        .mayOnlyBeAccessedByLayers("testing", "server", "junit", "bench")
        .whereLayer("testing")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("pass")
        .mayOnlyBeAccessedByLayers("rooms", "server", "bench", "examples")
        .whereLayer("consumer")
        .mayOnlyBeAccessedByLayers(
            "core", "rooms", "dispatch", "server", "client", "cli", "bench", "spring", "examples")
        .whereLayer("core")
        .mayOnlyBeAccessedByLayers("archive", "rooms", "dispatch", "server", "bench", "spring")
        .whereLayer("archive")
        .mayOnlyBeAccessedByLayers("server", "bench")
        .whereLayer("rooms")
        .mayOnlyBeAccessedByLayers("server", "bench")
        .whereLayer("dispatch")
        .mayOnlyBeAccessedByLayers("server")
        .whereLayer("server")
        .mayOnlyBeAccessedByLayers("junit", "cli", "bench")
        .whereLayer("client")
        .mayOnlyBeAccessedByLayers("junit", "cli", "spring", "examples")
        .whereLayer("junit")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("spring")
        .mayOnlyBeAccessedByLayers("examples")
        .whereLayer("cli")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("bench")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("examples")
        .mayNotBeAccessedByAnyLayer()
        .check(LineupClasses.all());
  }

  @Test
  void thePassCheckNeedsNothingButTheJdk() {
    classes()
        .that()
        .resideInAPackage("io.lineup.pass..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("io.lineup.pass..", "java..", "javax..")
        .because("a gateway checks passes offline with lineup-pass alone on its class path")
        .check(LineupClasses.all());
  }

  @Test
  void theApiNeedsNothingButTheJdkAndJacksonsAnnotations() {
    classes()
        .that()
        .resideInAPackage("io.lineup.api..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("io.lineup.api..", "java..", "com.fasterxml.jackson.annotation..")
        .because(
            "every module, the client's users included, may use it without pulling in more than"
                + " the annotations that name its records' JSON fields")
        .check(LineupClasses.all());
  }

  @Test
  void theConsumerLoopNeedsNothingButTheJdkAndTheObservationApi() {
    classes()
        .that()
        .resideInAPackage("io.lineup.consumer..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "io.lineup.consumer..",
            "java..",
            "io.micrometer.observation..",
            "io.micrometer.common..")
        .because(
            "the engine's worker and the client's both run on it, and the client runs no engine;"
                + " Micrometer's Observation API (no-op without a registry) instruments both")
        .check(LineupClasses.all());
  }

  @Test
  void theClientNeedsNothingButTheJdkJacksonTheApiAndTheConsumerLoop() {
    classes()
        .that()
        .resideInAPackage("io.lineup.client..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "io.lineup.client..",
            "io.lineup.api..",
            "io.lineup.consumer..",
            "java..",
            "com.fasterxml.jackson..",
            "io.micrometer.observation..",
            "io.micrometer.common..")
        .because(
            "the client talks HTTP to a server; it never runs the server's or engine's code (its"
                + " worker runs on the shared consumer loop, which needs only the JDK and the"
                + " Observation API)")
        .check(LineupClasses.all());
  }

  @Test
  void theCommandLineUsesTheServerOnlyToRunIt() {
    noClasses()
        .that()
        .resideInAPackage("io.lineup.cli..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("io.lineup.server..").and(not(name("io.lineup.server.Main"))))
        .because(
            "lineup server starts the server's Main; every other command goes through the client")
        .check(LineupClasses.all());
  }
}
