package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.consumer.RetryLaterException;
import io.lineup.consumer.WorkerOptions;
import io.lineup.consumer.observation.ProcessContext;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.testing.RedisServerExtension;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the engine's observations say: a {@code lineup.publish} per publish call and a {@code
 * lineup.process} per job a worker handles, with the messaging key values, the outcome, and the
 * tenant only when asked; without a registry nothing is observed and no context is stored.
 */
class ObservationsTest {
  @RegisterExtension static final RedisServerExtension redis = RedisServerExtension.withDefaults();

  @Test
  void aPublishIsObservedWithTheQueueTheJobIdAndItsOutcome() {
    QueueName queue = aFreshQueue();
    TestObservationRegistry registry = TestObservationRegistry.create();
    try (Lineup lineup = Fixtures.anEngine(redis, o -> o.observationRegistry(registry))) {
      String id = lineup.publish(queue, aJob("one")).id();
      assertThat(registry)
          .hasObservationWithNameEqualTo("lineup.publish")
          .that()
          .hasContextualNameEqualTo("publish " + queue)
          .hasLowCardinalityKeyValue("messaging.system", "lineup")
          .hasLowCardinalityKeyValue("messaging.operation.name", "publish")
          .hasLowCardinalityKeyValue("messaging.destination.name", queue.toString())
          .hasLowCardinalityKeyValue("lineup.outcome", "published")
          .doesNotHaveLowCardinalityKeyValueWithKey("lineup.namespace")
          .hasHighCardinalityKeyValue("messaging.message.id", id)
          .hasBeenStarted()
          .hasBeenStopped();
    }
  }

  @Test
  void aBatchIsOneObservationCountingItsJobs() {
    QueueName queue = aFreshQueue();
    TestObservationRegistry registry = TestObservationRegistry.create();
    try (Lineup lineup = Fixtures.anEngine(redis, o -> o.observationRegistry(registry))) {
      lineup.publishAll(queue, List.of(aJob("a"), aJob("b"), aJob("c")));
      assertThat(registry)
          .hasNumberOfObservationsWithNameEqualTo("lineup.publish", 1)
          .hasObservationWithNameEqualTo("lineup.publish")
          .that()
          .hasHighCardinalityKeyValue("messaging.batch.message_count", "3")
          .doesNotHaveHighCardinalityKeyValueWithKey("messaging.message.id");
    }
  }

  @Test
  void aRefusedPublishIsObservedAsFailedWithItsError() {
    QueueName queue = aFreshQueue();
    TestObservationRegistry registry = TestObservationRegistry.create();
    try (Lineup lineup = Fixtures.anEngine(redis, o -> o.observationRegistry(registry))) {
      assertThatThrownBy(() -> lineup.publish(queue, aJob("bad").priority(1_000)))
          .isInstanceOf(InvalidArgumentException.class);
      assertThat(registry)
          .hasObservationWithNameEqualTo("lineup.publish")
          .that()
          .hasLowCardinalityKeyValue("lineup.outcome", "failed")
          .hasError()
          .hasBeenStopped();
    }
  }

  @Test
  void eachJobAWorkerHandlesIsObservedWithItsOutcomeAndAttempt() {
    QueueName queue = aFreshQueue();
    TestObservationRegistry registry = TestObservationRegistry.create();
    Map<String, ProcessContext> byId = stoppedProcesses(registry);
    try (Lineup lineup = Fixtures.anEngine(redis, o -> o.observationRegistry(registry))) {
      String ok = lineup.publish(queue, aJob("ok")).id();
      String retry = lineup.publish(queue, aJob("retry")).id();
      String boom = lineup.publish(queue, aJob("boom").maxAttempts(1)).id();
      try (Worker worker =
          lineup
              .worker(
                  queue,
                  job -> {
                    switch (job.payloadText()) {
                      case "retry" -> throw new RetryLaterException("later", Duration.ofHours(1));
                      case "boom" -> throw new IllegalStateException("boom");
                      default -> {
                        return null;
                      }
                    }
                  },
                  WorkerOptions.defaults())
              .start()) {
        await().atMost(Duration.ofSeconds(20)).until(() -> byId.size() == 3);
      }
      assertThat(byId.get(ok).getLowCardinalityKeyValue("lineup.outcome").getValue())
          .isEqualTo("acked");
      assertThat(byId.get(retry).getLowCardinalityKeyValue("lineup.outcome").getValue())
          .isEqualTo("nacked");
      assertThat(byId.get(boom).getLowCardinalityKeyValue("lineup.outcome").getValue())
          .isEqualTo("failed");
      assertThat(byId.get(boom).getError()).hasMessage("boom");
      assertThat(byId.get(ok).getHighCardinalityKeyValue("lineup.delivery.attempt").getValue())
          .isEqualTo("1");
      assertThat(byId.get(ok).getLowCardinalityKeyValue("messaging.destination.name").getValue())
          .isEqualTo(queue.toString());
      assertThat(byId.get(ok).getContextualName()).isEqualTo("process " + queue);
    }
  }

  @Test
  void theTenantTagIsThereOnlyWhenAskedFor() {
    QueueName queue = aFreshQueue();
    TestObservationRegistry registry = TestObservationRegistry.create();
    try (Lineup lineup =
        Fixtures.anEngine(
            redis, o -> o.observationRegistry(registry).observationTenantTags(true))) {
      lineup.publish(queue, aJob("tenant"));
      assertThat(registry)
          .hasObservationWithNameEqualTo("lineup.publish")
          .that()
          .hasLowCardinalityKeyValue("lineup.namespace", queue.namespace());
    }
  }

  @Test
  void withoutARegistryNothingIsObservedAndNoContextIsStored() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = Fixtures.anEngine(redis)) {
      assertThat(lineup.options().observation().enabled()).isFalse();
      NewJob job = aJob("plain");
      String id = lineup.publish(queue, job).id();
      assertThat(job.traceparent()).isNull();
      List<String> handled = new CopyOnWriteArrayList<>();
      try (Worker worker =
          lineup
              .worker(
                  queue,
                  leased -> {
                    handled.add(leased.id() + " " + leased.trace());
                    return null;
                  },
                  WorkerOptions.defaults())
              .start()) {
        await().atMost(Duration.ofSeconds(20)).until(() -> worker.handled() == 1);
      }
      assertThat(handled).containsExactly(id + " null");
      assertThat(lineup.get(queue, id).orElseThrow().trace()).isNull();
    }
  }

  /** Keeps the process observations as they stop, by job id. */
  private static Map<String, ProcessContext> stoppedProcesses(TestObservationRegistry registry) {
    Map<String, ProcessContext> stopped = new ConcurrentHashMap<>();
    registry
        .observationConfig()
        .observationHandler(
            new ObservationHandler<ProcessContext>() {
              @Override
              public void onStop(ProcessContext context) {
                stopped.put(context.jobId(), context);
              }

              @Override
              public boolean supportsContext(Observation.Context context) {
                return context instanceof ProcessContext;
              }
            });
    return stopped;
  }
}
