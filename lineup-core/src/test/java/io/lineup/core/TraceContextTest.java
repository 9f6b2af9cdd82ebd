package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.api.TraceContext;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The W3C trace context a job is published with is stored in its record and comes back on every
 * lease and read of it, whatever happens to the job between; a job published without one stores
 * nothing for it.
 *
 * <p>Runs on both topologies ({@link TraceContextOnStandaloneTest}, {@link
 * TraceContextOnClusterTest}).
 */
abstract class TraceContextTest extends EngineSuite {
  static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  static final String OTHER_PARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";
  static final String STATE = "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE";

  @Test
  void aJobKeepsItsTraceContextThroughLeaseNackRedeliveryAndAck() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      String id = lineup.publish(queue, aJob("traced").traceparent(PARENT).tracestate(STATE)).id();
      TraceContext expected = new TraceContext(PARENT, STATE);
      assertThat(lineup.get(queue, id).orElseThrow().trace()).isEqualTo(expected);

      LeasedJob first = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      assertThat(first.trace()).isEqualTo(expected);
      assertThat(first.payloadText()).isEqualTo("traced");
      assertThat(lineup.get(queue, id).orElseThrow().trace())
          .as("while leased")
          .isEqualTo(expected);

      lineup.nack(queue, id, first.token(), "again", Duration.ZERO);
      LeasedJob second = lineup.lease(queue, 1, Duration.ofSeconds(5)).jobs().get(0);
      assertThat(second.attempt()).isEqualTo(2);
      assertThat(second.trace()).as("redelivered").isEqualTo(expected);

      lineup.ack(second, "done".getBytes(StandardCharsets.UTF_8));
      JobInfo done = lineup.get(queue, id).orElseThrow();
      assertThat(done.state()).isEqualTo(JobState.DONE);
      assertThat(done.trace()).as("after the ack").isEqualTo(expected);
    }
  }

  @Test
  void aTraceparentWithoutTracestateComesBackAlone() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      String id = lineup.publish(queue, aJob("traced").traceparent(PARENT)).id();
      assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs().get(0).trace())
          .isEqualTo(new TraceContext(PARENT, null));
      assertThat(lineup.get(queue, id).orElseThrow().trace().tracestate()).isNull();
    }
  }

  @Test
  void aDelayedJobWithATtlKeepsItsTraceContextWhenItFallsDue() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      lineup.publish(
          queue,
          aJob("later")
              .delay(Duration.ofMillis(50))
              .ttl(Duration.ofMinutes(5))
              .priority(3)
              .maxAttempts(4)
              .traceparent(PARENT));
      LeasedJob job = lineup.lease(queue, 1, Duration.ofSeconds(10)).jobs().get(0);
      assertThat(job.trace().traceparent()).isEqualTo(PARENT);
      assertThat(job.priority()).isEqualTo(3);
      assertThat(job.maxAttempts()).isEqualTo(4);
      assertThat(job.dueAt()).isAfter(job.createdAt());
    }
  }

  @Test
  void eachJobOfABatchKeepsItsOwnContextAndJobsWithoutOneHaveNone() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      lineup.publishAll(
          queue,
          List.of(
              aJob("a").traceparent(PARENT),
              aJob("b"),
              aJob("c").traceparent(OTHER_PARENT).tracestate(STATE),
              aJob("d").id("given-id").traceparent(PARENT)));
      Map<String, LeasedJob> leased =
          lineup.lease(queue, 4, Duration.ZERO).jobs().stream()
              .collect(Collectors.toMap(LeasedJob::payloadText, Function.identity()));
      assertThat(leased.get("a").trace()).isEqualTo(new TraceContext(PARENT, null));
      assertThat(leased.get("b").trace()).isNull();
      assertThat(leased.get("c").trace()).isEqualTo(new TraceContext(OTHER_PARENT, STATE));
      assertThat(leased.get("d").trace()).isEqualTo(new TraceContext(PARENT, null));
    }
  }

  @Test
  void aJobWithoutATraceContextStoresNothingForIt() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      String plain = lineup.publish(queue, aJob("same")).id();
      String traced = lineup.publish(queue, aJob("same").traceparent(PARENT)).id();
      byte[] plainRecord = raw().hget(KeySpace.recordKey(queue, plain), bytes(plain));
      byte[] tracedRecord = raw().hget(KeySpace.recordKey(queue, traced), bytes(traced));
      // The plain record: a fixarray of payload and creation time, as before trace contexts.
      assertThat(plainRecord[0] & 0xff).isEqualTo(0x92);
      assertThat(tracedRecord.length - plainRecord.length)
          .as("the traceparent and the absent fields before it")
          .isLessThan(PARENT.length() + 24);

      assertThat(lineup.get(queue, plain).orElseThrow().trace()).isNull();
      assertThat(lineup.lease(queue, 2, Duration.ZERO).jobs())
          .extracting(LeasedJob::trace)
          .containsExactly(null, new TraceContext(PARENT, null));
    }
  }

  @Test
  void aTraceContextThatBreaksTheW3cFormIsRefusedAndNothingIsWritten() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      assertRefused(lineup, queue, aJob("x").traceparent(PARENT.toUpperCase()), "traceparent");
      assertRefused(
          lineup,
          queue,
          aJob("x").traceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01"),
          "traceparent");
      assertRefused(
          lineup,
          queue,
          aJob("x").traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"),
          "traceparent");
      assertRefused(
          lineup, queue, aJob("x").traceparent("01" + PARENT.substring(2)), "traceparent");
      assertRefused(lineup, queue, aJob("x").traceparent(PARENT + "-00"), "traceparent");
      assertRefused(
          lineup, queue, aJob("x").traceparent(PARENT).tracestate("a".repeat(513)), "tracestate");
      assertRefused(
          lineup, queue, aJob("x").traceparent(PARENT).tracestate("rojo=1\ncongo=2"), "tracestate");
      assertThat(lineup.stats(queue).ready()).isZero();
    }
  }

  private static void assertRefused(Lineup lineup, QueueName queue, NewJob job, String field) {
    assertThatThrownBy(() -> lineup.publishAll(queue, List.of(aJob("fine"), job)))
        .isInstanceOfSatisfying(
            InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo(field));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
