package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.consumer.WorkerOptions;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.QueueName;
import io.lineup.testing.OtelTracing;
import io.lineup.testing.RedisServerExtension;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With a tracer (the OpenTelemetry SDK behind Micrometer's Observation API), a publish is a
 * producer span whose W3C context the job stores, and the worker that handles the job runs its
 * handler in a consumer span of the same trace, the producer's child.
 */
class TracePropagationTest {
  @RegisterExtension static final RedisServerExtension redis = RedisServerExtension.withDefaults();

  @Test
  void theConsumerSpanOfAJobIsTheChildOfTheSpanThatPublishedIt() {
    QueueName queue = aFreshQueue();
    try (OtelTracing tracing = new OtelTracing();
        Lineup lineup = Fixtures.anEngine(redis, o -> o.observationRegistry(tracing.registry()))) {
      String id = lineup.publish(queue, aJob("traced")).id();
      List<String> handlerSpans = new CopyOnWriteArrayList<>();
      List<LeasedJob> handled = new CopyOnWriteArrayList<>();
      try (Worker worker =
          lineup
              .worker(
                  queue,
                  job -> {
                    handlerSpans.add(tracing.tracer().currentSpan().context().spanId());
                    handled.add(job);
                    return null;
                  },
                  WorkerOptions.defaults())
              .start()) {
        await().atMost(Duration.ofSeconds(20)).until(() -> spansOf(tracing, SpanKind.CONSUMER) > 0);
      }
      SpanData producer = only(tracing, SpanKind.PRODUCER);
      SpanData consumer = only(tracing, SpanKind.CONSUMER);
      assertThat(producer.getName()).isEqualTo("publish " + queue);
      assertThat(consumer.getName()).isEqualTo("process " + queue);
      assertThat(consumer.getTraceId()).isEqualTo(producer.getTraceId());
      assertThat(consumer.getParentSpanId()).isEqualTo(producer.getSpanId());
      assertThat(handlerSpans).containsExactly(consumer.getSpanId());

      assertThat(handled.get(0).trace().traceparent())
          .isEqualTo("00-" + producer.getTraceId() + "-" + producer.getSpanId() + "-01");
      assertThat(lineup.get(queue, id).orElseThrow().trace().traceparent())
          .contains(producer.getSpanId());
      assertThat(attribute(producer, "messaging.destination.name")).isEqualTo(queue.toString());
      assertThat(attribute(producer, "messaging.message.id")).isEqualTo(id);
      assertThat(attribute(consumer, "messaging.message.id")).isEqualTo(id);
      assertThat(attribute(consumer, "lineup.delivery.attempt")).isEqualTo("1");
      assertThat(attribute(consumer, "lineup.outcome")).isEqualTo("acked");
    }
  }

  @Test
  void aPublishInsideACallersSpanContinuesItsTrace() {
    QueueName queue = aFreshQueue();
    try (OtelTracing tracing = new OtelTracing();
        Lineup lineup = Fixtures.anEngine(redis, o -> o.observationRegistry(tracing.registry()))) {
      var request = tracing.tracer().nextSpan().name("http request").start();
      try (var inScope = tracing.tracer().withSpan(request)) {
        lineup.publish(queue, aJob("inside"));
      } finally {
        request.end();
      }
      SpanData producer = only(tracing, SpanKind.PRODUCER);
      assertThat(producer.getTraceId()).isEqualTo(request.context().traceId());
      assertThat(producer.getParentSpanId()).isEqualTo(request.context().spanId());
      LeasedJob job = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      assertThat(job.trace().traceparent()).contains(request.context().traceId());
    }
  }

  private static long spansOf(OtelTracing tracing, SpanKind kind) {
    return tracing.spans().stream().filter(s -> s.getKind() == kind).count();
  }

  private static SpanData only(OtelTracing tracing, SpanKind kind) {
    List<SpanData> spans = tracing.spans().stream().filter(s -> s.getKind() == kind).toList();
    assertThat(spans).as(kind + " spans").hasSize(1);
    return spans.get(0);
  }

  private static String attribute(SpanData span, String key) {
    return span.getAttributes().get(AttributeKey.stringKey(key));
  }
}
