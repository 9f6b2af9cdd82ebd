package io.lineup.consumer;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.consumer.observation.ObservationSettings;
import io.lineup.consumer.observation.ProcessContext;
import io.lineup.consumer.observation.ProcessOutcome;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The loop observes each job it runs ({@code lineup.process}) when given a registry, tagged with
 * how the job ended; without one it makes no context at all.
 */
class JobObservationTest {
  @Test
  void eachJobIsObservedWithHowItEnded() throws Exception {
    TestObservationRegistry registry = TestObservationRegistry.create();
    Map<String, ProcessContext> stopped = stoppedProcesses(registry);
    FakeSource source = new FakeSource().add("ok", "later", "boom");
    source.ready.add(new FakeSource.Job("lost", Duration.ofMillis(40)));
    source.extendFailure = job -> job.id().equals("lost") ? new FakeSource.Lost() : null;
    ConsumerLoop<FakeSource.Job> loop =
        new ConsumerLoop<>(
            source,
            job ->
                switch (job.id()) {
                  case "later" -> throw new RetryLaterException("later", Duration.ofMinutes(1));
                  case "boom" -> throw new IllegalStateException("boom");
                  case "lost" -> {
                    // Interrupted when its lease is lost; bounded, since a lease lost before the
                    // handler's thread started cannot interrupt it (the job is abandoned anyway).
                    new CountDownLatch(1).await(10, TimeUnit.SECONDS);
                    yield null;
                  }
                  default -> null;
                },
            options().concurrency(4).observation(ObservationSettings.of(registry)).build());
    loop.start().awaitEnd();
    loop.close();

    assertThat(stopped.get("ok").outcome()).isEqualTo(ProcessOutcome.ACKED);
    assertThat(stopped.get("later").outcome()).isEqualTo(ProcessOutcome.NACKED);
    assertThat(stopped.get("boom").outcome()).isEqualTo(ProcessOutcome.FAILED);
    assertThat(stopped.get("boom").getError()).hasMessage("boom");
    assertThat(stopped.get("lost").outcome()).isEqualTo(ProcessOutcome.ABANDONED);
    assertThat(stopped.get("ok").getLowCardinalityKeyValue("lineup.outcome").getValue())
        .isEqualTo("acked");
    assertThat(registry)
        .hasNumberOfObservationsWithNameEqualTo("lineup.process", 4)
        .forAllObservationsWithNameEqualTo(
            "lineup.process",
            observation ->
                observation
                    .hasLowCardinalityKeyValue("messaging.destination.name", "ns/q")
                    .hasHighCardinalityKeyValue("lineup.delivery.attempt", "1"));
  }

  @Test
  void withoutARegistryNoContextIsMade() throws Exception {
    FakeSource source = new FakeSource().add("a", "b");
    ConsumerLoop<FakeSource.Job> loop = new ConsumerLoop<>(source, job -> null, options().build());
    loop.start().awaitEnd();
    loop.close();

    assertThat(source.acked).containsOnlyKeys("a", "b");
    assertThat(source.contextsMade).hasValue(0);
  }

  private static ConsumerOptions.Builder options() {
    return ConsumerOptions.builder().name("test").label("q").stopWhenEmpty(true);
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
