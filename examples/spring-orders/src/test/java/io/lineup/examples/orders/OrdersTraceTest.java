package io.lineup.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.Lineup;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.QueueName;
import io.lineup.testing.OtelTracing;
import io.lineup.testing.RedisServerExtension;
import io.micrometer.observation.ObservationRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The orders service end to end on a real Redis with a tracer: the application's {@link
 * ObservationRegistry} is bridged to the OpenTelemetry SDK (spans exported in memory), and the
 * starter passes it to the engine. Placing an order and its close an unpaid window later make one
 * trace: the publish span (producer) and, as its child, the span of the handler that closed the
 * order (consumer).
 */
@SpringBootTest(
    properties = {
      "orders.unpaid-window=1s",
      "lineup.worker.idle-wait=1s",
      // Its own in-memory database: the other test class's orders stay out of this one's.
      "spring.datasource.url=jdbc:h2:mem:orders-traced;DB_CLOSE_DELAY=-1"
    })
@DirtiesContext
class OrdersTraceTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static final QueueName CLOSE_QUEUE = QueueName.parse(Orders.CLOSE_QUEUE);

  /** What an application with Micrometer Tracing and an OpenTelemetry exporter has. */
  @TestConfiguration(proxyBeanMethods = false)
  static class Tracing {
    @Bean(destroyMethod = "close")
    OtelTracing otelTracing() {
      return new OtelTracing();
    }

    @Bean
    ObservationRegistry observationRegistry(OtelTracing tracing) {
      return tracing.registry();
    }
  }

  @DynamicPropertySource
  static void redis(DynamicPropertyRegistry registry) {
    registry.add("lineup.redis.url", redis::uri);
  }

  /** Stops the workers while Redis still runs (see OrdersApplicationTest). */
  @AfterAll
  static void stopWorkers(@Autowired ConfigurableApplicationContext context) {
    context.stop();
  }

  @Autowired Orders orders;
  @Autowired Lineup lineup;
  @Autowired OtelTracing tracing;

  @Test
  void anOrdersCloseIsOneTraceFromThePublishToTheHandlerThatClosedIt() {
    orders.place("2001", "book");

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() ->
            jobState("close-2001") == JobState.DONE
                && span(SpanKind.CONSUMER, "close-2001").isPresent());
    assertThat(orders.status("2001")).contains("CLOSED");

    SpanData producer = span(SpanKind.PRODUCER, "close-2001").orElseThrow();
    SpanData consumer = span(SpanKind.CONSUMER, "close-2001").orElseThrow();
    assertThat(producer.getName()).isEqualTo("publish shop/close-unpaid");
    assertThat(consumer.getName()).isEqualTo("process shop/close-unpaid");
    assertThat(consumer.getTraceId()).isEqualTo(producer.getTraceId());
    assertThat(consumer.getParentSpanId()).isEqualTo(producer.getSpanId());
    assertThat(attribute(producer, "messaging.destination.name")).isEqualTo("shop/close-unpaid");
    assertThat(attribute(consumer, "messaging.destination.name")).isEqualTo("shop/close-unpaid");
    assertThat(attribute(producer, "messaging.message.id")).isEqualTo("close-2001");
    assertThat(attribute(consumer, "messaging.message.id")).isEqualTo("close-2001");
    assertThat(attribute(consumer, "lineup.delivery.attempt")).isEqualTo("1");
    assertThat(attribute(consumer, "lineup.outcome")).isEqualTo("acked");
    // The job carries the producer's context: that is what linked the two, across the delay.
    assertThat(lineup.get(CLOSE_QUEUE, "close-2001").orElseThrow().trace().traceparent())
        .isEqualTo("00-" + producer.getTraceId() + "-" + producer.getSpanId() + "-01");
  }

  @Test
  void aRolledBackOrderExportsNoPublishSpan() {
    assertThatThrownBy(() -> orders.place("2003", Orders.SOLD_OUT))
        .isInstanceOf(OutOfStockException.class);

    assertThat(lineup.exists(CLOSE_QUEUE, "close-2003")).isFalse();
    assertThat(tracing.spans())
        .noneMatch(span -> "close-2003".equals(attribute(span, "messaging.message.id")));
    assertThat(span(SpanKind.PRODUCER, "close-2003")).isEmpty();
  }

  /** The finished span of this kind about this job, if any. */
  private Optional<SpanData> span(SpanKind kind, String jobId) {
    List<SpanData> spans = tracing.spans(kind);
    return spans.stream()
        .filter(span -> jobId.equals(attribute(span, "messaging.message.id")))
        .findFirst();
  }

  private static String attribute(SpanData span, String key) {
    return span.getAttributes().get(AttributeKey.stringKey(key));
  }

  private JobState jobState(String id) {
    return lineup.get(CLOSE_QUEUE, id).map(JobInfo::state).orElse(null);
  }
}
