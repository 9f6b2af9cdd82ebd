package io.lineup.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.Schedule;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code @LineupHandler} methods run as workers with the context; {@code @LineupSchedule} too. */
class LineupHandlerTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  /** Each test's queues, unique so the tests share one Redis without seeing each other's jobs. */
  static final String NAMESPACE = RedisServerExtension.uniqueName("handlers");

  static Lineup lineup;

  @BeforeAll
  static void connect() {
    lineup = Lineup.connect(LineupOptions.builder(redis.uri()).maintenance(false).build());
  }

  @AfterAll
  static void close() {
    lineup.close();
  }

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(LineupAutoConfiguration.class))
          .withPropertyValues(
              "lineup.redis.url=" + redis.uri(),
              "lineup.worker.idle-wait=1s",
              "test.namespace=" + NAMESPACE);

  record CloseOrder(String order, int amount) {}

  static class OrderHandlers {
    final List<CloseOrder> commands = new CopyOnWriteArrayList<>();
    final List<HandledJob> jobs = new CopyOnWriteArrayList<>();
    final List<LeasedJob> leased = new CopyOnWriteArrayList<>();

    @LineupHandler(queue = "${test.namespace}/close")
    public String close(CloseOrder command, HandledJob job) {
      commands.add(command);
      jobs.add(job);
      return "closed " + command.order();
    }

    @LineupHandler(queue = "${test.namespace}/raw")
    public void raw(LeasedJob job) {
      leased.add(job);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OrderHandlerConfig {
    @Bean
    OrderHandlers orderHandlers() {
      return new OrderHandlers();
    }
  }

  @Test
  void aHandlerGetsThePayloadAsItsTypeAndTheJobAndItsReturnValueIsKeptAsTheResult() {
    runner
        .withUserConfiguration(OrderHandlerConfig.class)
        .run(context -> {
          String queue = NAMESPACE + "/close";
          context
              .getBean(LineupPublisher.class)
              .publish(
                  queue, new CloseOrder("o-1", 30), PublishOptions.defaults().withId("order-o-1"));
          OrderHandlers handlers = context.getBean(OrderHandlers.class);

          await().atMost(Duration.ofSeconds(10)).until(() -> done(queue, "order-o-1"));
          assertThat(handlers.commands).containsExactly(new CloseOrder("o-1", 30));
          assertThat(handlers.jobs.get(0).id()).isEqualTo("order-o-1");
          assertThat(handlers.jobs.get(0).attempt()).isEqualTo(1);
          JobInfo job = lineup.get(QueueName.parse(queue), "order-o-1").orElseThrow();
          assertThat(new String(job.result())).isEqualTo("closed o-1");
        });
  }

  @Test
  void aHandlerMayTakeTheEnginesOwnLeasedJob() {
    runner
        .withUserConfiguration(OrderHandlerConfig.class)
        .run(context -> {
          String queue = NAMESPACE + "/raw";
          context
              .getBean(LineupPublisher.class)
              .publish(queue, new byte[] {1, 2, 3}, PublishOptions.defaults().withId("raw-1"));

          await().atMost(Duration.ofSeconds(10)).until(() -> done(queue, "raw-1"));
          LeasedJob job = context.getBean(OrderHandlers.class).leased.get(0);
          assertThat(job.payload()).containsExactly(1, 2, 3);
          assertThat(job.queue()).isEqualTo(QueueName.parse(queue));
        });
  }

  static class FailingHandler {
    final AtomicInteger calls = new AtomicInteger();

    @LineupHandler(queue = "${test.namespace}/failing")
    public void fail(String payload) {
      calls.incrementAndGet();
      throw new IllegalStateException("payment service down for " + payload);
    }
  }

  @Test
  void aHandlersExceptionFailsTheJobWhichGoesToDeadLettersWhenOutOfAttempts() {
    String queue = NAMESPACE + "/failing";
    runner
        .withBean(FailingHandler.class)
        .run(context -> {
          context
              .getBean(LineupPublisher.class)
              .publish(queue, "o-9", PublishOptions.defaults().withId("fail-1").withMaxAttempts(1));

          await()
              .atMost(Duration.ofSeconds(10))
              .until(() -> state(queue, "fail-1") == JobState.DEAD);
          JobInfo job = lineup.get(QueueName.parse(queue), "fail-1").orElseThrow();
          assertThat(job.lastError()).contains("payment service down for o-9");
          assertThat(context.getBean(FailingHandler.class).calls).hasValue(1);
        });
  }

  static class SlowHandler {
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger mostAtOnce = new AtomicInteger();
    final CountDownLatch release = new CountDownLatch(1);

    @LineupHandler(queue = "${test.namespace}/slow", concurrency = "${test.slow-concurrency:8}")
    public void slow(HandledJob job) throws InterruptedException {
      mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
      try {
        release.await();
      } finally {
        running.decrementAndGet();
      }
    }
  }

  @Test
  void theConcurrencyPlaceholderIsResolvedAndBoundsTheJobsRunningAtOnce() {
    String queue = NAMESPACE + "/slow";
    runner
        .withBean(SlowHandler.class)
        .withPropertyValues("test.slow-concurrency=2")
        .run(context -> {
          SlowHandler handler = context.getBean(SlowHandler.class);
          LineupPublisher publisher = context.getBean(LineupPublisher.class);
          for (int i = 0; i < 5; i++) {
            publisher.publish(queue, "job", PublishOptions.defaults().withId("slow-" + i));
          }
          await().atMost(Duration.ofSeconds(10)).until(() -> handler.running.get() == 2);
          handler.release.countDown();
          await()
              .atMost(Duration.ofSeconds(10))
              .until(() -> context.getBean(LineupWorkers.class).workers().get(0).handled() == 5);
          assertThat(handler.mostAtOnce).hasValue(2);
        });
  }

  static class BlockingHandler {
    final CountDownLatch started = new CountDownLatch(1);

    @LineupHandler(queue = "${test.namespace}/blocking")
    public void block(HandledJob job) throws InterruptedException {
      started.countDown();
      new CountDownLatch(1).await(); // until the worker's stop interrupts it
    }
  }

  @Test
  void stoppingTheContextGivesARunningJobBackAfterTheGraceWithoutCountingTheAttempt() {
    String queue = NAMESPACE + "/blocking";
    runner
        .withBean(BlockingHandler.class)
        .withPropertyValues("lineup.worker.shutdown-grace=100ms")
        .run(context -> {
          context
              .getBean(LineupPublisher.class)
              .publish(queue, "job", PublishOptions.defaults().withId("held-1"));
          await()
              .atMost(Duration.ofSeconds(10))
              .until(() -> context.getBean(BlockingHandler.class).started.getCount() == 0);
          assertThat(state(queue, "held-1")).isEqualTo(JobState.LEASED);
        });
    // The runner closed the context: the job is back in line, as the worker's stop promises.
    JobInfo job = lineup.get(QueueName.parse(queue), "held-1").orElseThrow();
    assertThat(job.state()).isEqualTo(JobState.READY);
  }

  @Test
  void withWorkersSwitchedOffNoJobIsTaken() {
    String queue = NAMESPACE + "/close-off";
    runner
        .withBean(OffHandler.class)
        .withPropertyValues("lineup.worker.enabled=false")
        .run(context -> {
          context
              .getBean(LineupPublisher.class)
              .publish(queue, "x", PublishOptions.defaults().withId("off-1"));
          assertThat(context.getBean(LineupWorkers.class).workers()).isEmpty();
          assertThat(context.getBean(LineupWorkers.class).handlerCount()).isEqualTo(1);
          assertThat(state(queue, "off-1")).isEqualTo(JobState.READY);
        });
  }

  static class OffHandler {
    @LineupHandler(queue = "${test.namespace}/close-off")
    public void handle(String payload) {
      throw new AssertionError("workers are off");
    }
  }

  static class Reports {
    @LineupSchedule(
        cron = "${test.reports-cron}",
        zone = "Europe/Paris",
        name = "nightly",
        payload = "{\"kind\":\"sales\"}")
    @LineupHandler(queue = "${test.namespace}/reports")
    public void nightly(HandledJob job) {}

    @LineupSchedule(queue = "${test.namespace}/cleanup", cron = "0 */5 * * * *")
    public void cleanupDeclaration() {}
  }

  @Test
  void schedulesAreCreatedAtStartWithTheirPlaceholdersResolved() {
    runner
        .withBean("reports", Reports.class)
        .withPropertyValues("test.reports-cron=0 0 2 * * *")
        .run(context -> {
          Schedule nightly =
              lineup
                  .schedules()
                  .get(QueueName.parse(NAMESPACE + "/reports"), "nightly")
                  .orElseThrow();
          assertThat(nightly.spec().cron()).isEqualTo("0 0 2 * * *");
          assertThat(nightly.spec().zone()).isEqualTo(ZoneId.of("Europe/Paris"));
          assertThat(new String(nightly.spec().payload())).isEqualTo("{\"kind\":\"sales\"}");
          assertThat(
                  lineup
                      .schedules()
                      .get(QueueName.parse(NAMESPACE + "/cleanup"), "reports.cleanupDeclaration"))
              .isPresent();
        });
  }

  @Test
  void withSchedulesSwitchedOffNoScheduleIsWritten() {
    String namespace = RedisServerExtension.uniqueName("noschedules");
    runner
        .withBean("reports", Reports.class)
        .withPropertyValues(
            "test.reports-cron=0 0 3 * * *",
            "test.namespace=" + namespace,
            "lineup.schedules.enabled=false")
        .run(context ->
            assertThat(lineup.schedules().list(QueueName.parse(namespace + "/reports"))).isEmpty());
  }

  static class BadCron {
    @LineupSchedule(queue = "${test.namespace}/bad", name = "broken", cron = "0 61 * * * *")
    public void declaration() {}
  }

  @Test
  void aBadCronExpressionFailsTheStartNamingTheScheduleAndTheField() {
    runner
        .withBean(BadCron.class)
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure())
              .hasStackTraceContaining("@LineupSchedule 'broken'")
              .hasStackTraceContaining("minutes");
        });
  }

  static class TwoPayloads {
    @LineupHandler(queue = "${test.namespace}/two")
    public void both(String one, String two) {}
  }

  @Test
  void aHandlerWithTwoPayloadParametersFailsTheStartNamingTheMethod() {
    runner
        .withBean(TwoPayloads.class)
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure())
              .rootCause()
              .hasMessageContaining("TwoPayloads.both");
        });
  }

  @Test
  void aConcurrencyOutOfRangeFailsTheStartNamingTheHandler() {
    runner
        .withBean(SlowHandler.class)
        .withPropertyValues("test.slow-concurrency=0")
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("concurrency");
          assertThat(context.getStartupFailure()).hasStackTraceContaining("SlowHandler.slow");
        });
  }

  private static boolean done(String queue, String id) {
    return state(queue, id) == JobState.DONE;
  }

  private static JobState state(String queue, String id) {
    return lineup.get(QueueName.parse(queue), id).map(JobInfo::state).orElse(null);
  }
}
