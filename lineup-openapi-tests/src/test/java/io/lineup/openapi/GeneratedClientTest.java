package io.lineup.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lineup.client.TestServer;
import io.lineup.openapi.generated.ApiClient;
import io.lineup.openapi.generated.ApiException;
import io.lineup.openapi.generated.api.JobsApi;
import io.lineup.openapi.generated.api.LeasesApi;
import io.lineup.openapi.generated.api.QueuesApi;
import io.lineup.openapi.generated.model.Ack;
import io.lineup.openapi.generated.model.Job;
import io.lineup.openapi.generated.model.LeaseRequest;
import io.lineup.openapi.generated.model.LeasedJob;
import io.lineup.openapi.generated.model.Leases;
import io.lineup.openapi.generated.model.Queue;
import io.lineup.testing.RedisServerExtension;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Java client generated from the OpenAPI document at build time (openapi-generator, native HTTP
 * library) publishes, leases and acks against a real server: the document and the server agree.
 */
class GeneratedClientTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static TestServer server;
  static ApiClient api;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
    api = new ApiClient();
    api.updateBaseUri(server.url());
    api.setRequestInterceptor(
        request -> request.header("Authorization", "Bearer " + TestServer.ADMIN_TOKEN));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void theGeneratedClientPublishesLeasesAndAcksAJob() throws Exception {
    String queue = RedisServerExtension.uniqueName("generated");
    ObjectMapper mapper = new ObjectMapper();
    JsonNode newJob = mapper.readTree("{\"payload\": {\"order\": 42}, \"id\": \"order-42\"}");
    // No durable_replicas, no durable_timeout_ms: the queue's setting (answer at once). A W3C
    // trace context in the headers, stored with the job.
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    JsonNode published =
        new JobsApi(api).publishJobs("shop", queue, newJob, null, null, traceparent, "rojo=1");
    assertThat(published.get("id").asText()).isEqualTo("order-42");
    assertThat(published.get("state").asText()).isEqualTo("READY");

    Leases leases =
        new LeasesApi(api).leaseJobs("shop", queue, null, new LeaseRequest().count(1).waitMs(5000));
    assertThat(leases.getJobs()).hasSize(1);
    LeasedJob leased = leases.getJobs().get(0);
    assertThat(leased.getId()).isEqualTo("order-42");
    assertThat(leased.getAttempt()).isEqualTo(1);
    assertThat(leased.getPayload()).isEqualTo(Map.of("order", 42));
    assertThat(leased.getTraceparent()).isEqualTo(traceparent);
    assertThat(leased.getTracestate()).isEqualTo("rojo=1");

    new LeasesApi(api)
        .ackJob(
            "shop",
            queue,
            leased.getId(),
            new Ack().token(leased.getToken()).result(Map.of("closed", true)));

    Job job = new JobsApi(api).getJob("shop", queue, "order-42", null);
    assertThat(job.getState()).isEqualTo("DONE");
    assertThat(job.getResult()).isEqualTo(Map.of("closed", true));
    assertThat(job.getTraceparent()).isEqualTo(traceparent);

    Queue stats = new QueuesApi(api).getQueue("shop", queue);
    assertThat(stats.getCounters()).containsEntry("acked", 1L);
  }

  @Test
  void anErrorAnswerReachesTheGeneratedClientAsItsStatusAndJsonBody() {
    assertThatThrownBy(() -> new JobsApi(api).getJob("shop", "nothing-here", "nope", null))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.getCode()).isEqualTo(404);
              assertThat(e.getResponseBody()).contains("\"error\":\"not_found\"");
            });
  }
}
