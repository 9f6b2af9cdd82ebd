package io.lineup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.api.resource.Job;
import io.lineup.api.resource.LeasedJob;
import io.lineup.consumer.WorkerOptions;
import io.lineup.testing.OtelTracing;
import io.lineup.testing.RedisServerExtension;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A trace crosses the HTTP API: the client's publish span sends its context in the {@code
 * traceparent} header, the server stores it with the job, and a remote worker's consumer span is
 * the publish span's child. The server ignores an invalid header rather than refuse the publish.
 */
class TraceThroughServerTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  static TestServer server;
  static LineupClient plain;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
    plain = server.adminClient();
  }

  @AfterAll
  static void stop() {
    plain.close();
    server.close();
  }

  static QueueName queue(String prefix) {
    return QueueName.of("traces", RedisServerExtension.uniqueName(prefix));
  }

  @Test
  void aRemoteWorkersSpanIsTheChildOfTheClientsPublishSpan() {
    QueueName queue = queue("e2e");
    List<String> seen = new CopyOnWriteArrayList<>();
    try (OtelTracing tracing = new OtelTracing();
        LineupClient client =
            LineupClient.builder(server.url())
                .token(TestServer.ADMIN_TOKEN)
                .observationRegistry(tracing.registry())
                .build()) {
      String id = client.publish(queue, NewJob.ofJson("{\"n\":1}")).id();
      try (RemoteWorker worker =
          client
              .worker(
                  queue,
                  job -> {
                    seen.add(job.traceparent());
                    return null;
                  },
                  WorkerOptions.defaults().withIdleWait(Duration.ofSeconds(1)))
              .start()) {
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> tracing.spans().stream().anyMatch(s -> s.getKind() == SpanKind.CONSUMER));
      }
      SpanData producer = only(tracing, SpanKind.PRODUCER);
      SpanData consumer = only(tracing, SpanKind.CONSUMER);
      String sent = "00-" + producer.getTraceId() + "-" + producer.getSpanId() + "-01";
      assertThat(seen).containsExactly(sent);
      assertThat(client.get(queue, id).traceparent()).isEqualTo(sent);
      assertThat(consumer.getTraceId()).isEqualTo(producer.getTraceId());
      assertThat(consumer.getParentSpanId()).isEqualTo(producer.getSpanId());
      assertThat(consumer.getName()).isEqualTo("process " + queue.namespace() + "/" + queue.name());
    }
  }

  @Test
  void aTraceparentGivenToTheClientIsStoredAndLeasedWithItsTracestate() {
    QueueName queue = queue("given");
    plain.publishAll(
        queue,
        List.of(NewJob.ofJson("1").traceparent(PARENT).tracestate("rojo=1"), NewJob.ofJson("2")));
    List<LeasedJob> leased = plain.lease(queue, 2, Duration.ZERO);
    assertThat(leased)
        .extracting(LeasedJob::traceparent, LeasedJob::tracestate)
        .as("one context per request, for every job of it")
        .containsOnly(org.assertj.core.groups.Tuple.tuple(PARENT, "rojo=1"));
  }

  @Test
  void anInvalidTraceparentHeaderIsIgnoredAndThePublishAccepted() throws Exception {
    QueueName queue = queue("bad");
    assertThat(publishRaw(queue, "", PARENT.toUpperCase(), "rojo=1")).isEqualTo(201);
    Job job = plain.get(queue, "x");
    assertThat(job.traceparent()).isNull();
    assertThat(job.tracestate()).isNull();
  }

  @Test
  void aPublishWithAQueryStoresTheHeadersTooAndDropsAnInvalidTracestate() throws Exception {
    // A query sends the request through the servlet routes rather than the server's core lane.
    QueueName queue = queue("query");
    String tooLong = "rojo=" + "1".repeat(600);
    assertThat(publishRaw(queue, "?durable_replicas=0", PARENT, tooLong)).isEqualTo(201);
    Job job = plain.get(queue, "x");
    assertThat(job.traceparent()).isEqualTo(PARENT);
    assertThat(job.tracestate()).isNull();
  }

  /** Publishes job "x" with these trace headers over plain HTTP; returns the status. */
  private static int publishRaw(QueueName queue, String query, String parent, String state)
      throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create(
                        server.url()
                            + "/v1/queues/"
                            + queue.namespace()
                            + "/"
                            + queue.name()
                            + "/jobs"
                            + query))
                .header("Authorization", "Bearer " + TestServer.ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .header("traceparent", parent)
                .header("tracestate", state)
                .POST(HttpRequest.BodyPublishers.ofString("{\"payload\":1,\"id\":\"x\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }

  private static SpanData only(OtelTracing tracing, SpanKind kind) {
    List<SpanData> spans = tracing.spans().stream().filter(s -> s.getKind() == kind).toList();
    assertThat(spans).as(kind + " spans").hasSize(1);
    return spans.get(0);
  }
}
