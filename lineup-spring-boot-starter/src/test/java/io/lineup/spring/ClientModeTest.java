package io.lineup.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.api.resource.JobState;
import io.lineup.api.resource.LeasedJob;
import io.lineup.client.LineupClient;
import io.lineup.client.QueueName;
import io.lineup.client.TestServer;
import io.lineup.core.Lineup;
import io.lineup.testing.RedisServerExtension;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code lineup.mode=client}: the same publisher, handlers and schedules over a real server. */
class ClientModeTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static final String NAMESPACE = RedisServerExtension.uniqueName("client");

  static TestServer server;
  static String token;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
    token = server.tokenFor(NAMESPACE, 0, "publish", "consume", "manage");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                LineupAutoConfiguration.class, LineupHealthAutoConfiguration.class))
        .withPropertyValues(
            "lineup.mode=client",
            "lineup.client.url=" + server.url(),
            "lineup.client.token=" + token,
            "lineup.worker.idle-wait=1s",
            "lineup.worker.shutdown-grace=1s",
            "test.namespace=" + NAMESPACE);
  }

  record Greeting(String name) {}

  static class Greeter {
    final List<Greeting> greetings = new CopyOnWriteArrayList<>();
    final List<LeasedJob> leased = new CopyOnWriteArrayList<>();

    @LineupHandler(queue = "${test.namespace}/greet")
    public Greeting greet(Greeting greeting, LeasedJob job) {
      greetings.add(greeting);
      leased.add(job);
      return new Greeting("hello " + greeting.name());
    }
  }

  @Test
  void clientModeMakesTheClientAndNoEngine() {
    runner()
        .run(context -> {
          assertThat(context).hasSingleBean(LineupClient.class);
          assertThat(context).doesNotHaveBean(Lineup.class);
          assertThat(context.getBean(LineupClient.class).baseUrl()).isEqualTo(server.url());
        });
  }

  @Test
  void aHandlerRunsTheJobsPublishedThroughTheServer() {
    runner()
        .withBean(Greeter.class)
        .run(context -> {
          String queue = NAMESPACE + "/greet";
          PublishReceipt receipt =
              context
                  .getBean(LineupPublisher.class)
                  .publish(queue, new Greeting("ada"), PublishOptions.defaults().withId("g-1"));
          assertThat(receipt.created()).isTrue();

          LineupClient client = context.getBean(LineupClient.class);
          await()
              .atMost(Duration.ofSeconds(10))
              .until(() -> client.get(QueueName.parse(queue), "g-1").state() == JobState.DONE);
          Greeter greeter = context.getBean(Greeter.class);
          assertThat(greeter.greetings).containsExactly(new Greeting("ada"));
          assertThat(greeter.leased.get(0).id()).isEqualTo("g-1");
          assertThat(client.get(QueueName.parse(queue), "g-1").result().json())
              .contains("hello ada");
          assertThat(context.getBean(LineupHealthIndicator.class).health().getStatus().getCode())
              .isEqualTo("UP");
        });
  }

  @Test
  void theApplicationsObservationRegistryObservesTheClientsPublishesAndItsHandledJobs() {
    runner()
        .withBean(TestObservationRegistry.class, TestObservationRegistry::create)
        .withBean(Greeter.class)
        .withPropertyValues("lineup.observation.tenant-tags=true")
        .run(context -> {
          String queue = NAMESPACE + "/greet";
          TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
          assertThat(context).hasSingleBean(LineupClientCustomizer.class);
          context
              .getBean(LineupPublisher.class)
              .publish(queue, new Greeting("bo"), PublishOptions.defaults().withId("g-obs"));

          await()
              .atMost(Duration.ofSeconds(20))
              .untilAsserted(() ->
                  TestObservationRegistryAssert.assertThat(registry)
                      .hasObservationWithNameEqualTo("lineup.process")
                      .that()
                      .hasBeenStopped());
          TestObservationRegistryAssert.assertThat(registry)
              .hasObservationWithNameEqualTo("lineup.publish")
              .that()
              .hasLowCardinalityKeyValue("messaging.destination.name", queue)
              .hasLowCardinalityKeyValue("lineup.namespace", NAMESPACE)
              .hasHighCardinalityKeyValue("messaging.message.id", "g-obs");
          TestObservationRegistryAssert.assertThat(registry)
              .hasObservationWithNameEqualTo("lineup.process")
              .that()
              .hasLowCardinalityKeyValue("messaging.destination.name", queue)
              .hasLowCardinalityKeyValue("lineup.namespace", NAMESPACE)
              .hasLowCardinalityKeyValue("lineup.outcome", "acked")
              .hasHighCardinalityKeyValue("messaging.message.id", "g-obs");
        });
  }

  static class Ticker {
    @LineupSchedule(queue = "${test.namespace}/ticks", name = "every-hour", cron = "0 0 * * * *")
    public void declaration() {}
  }

  @Test
  void schedulesAreWrittenThroughTheServer() {
    runner()
        .withBean(Ticker.class)
        .run(context ->
            assertThat(
                    context
                        .getBean(LineupClient.class)
                        .schedules()
                        .get(QueueName.parse(NAMESPACE + "/ticks"), "every-hour")
                        .name())
                .isEqualTo("every-hour"));
  }

  @Test
  void theApplicationsOwnClientIsUsedInsteadOfTheStartersOne() {
    LineupClient own = LineupClient.connect(server.url(), token);
    runner()
        .withBean(LineupClient.class, () -> own)
        .run(context -> assertThat(context.getBean(LineupClient.class)).isSameAs(own));
  }
}
