package io.lineup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.api.resource.Endpoint;
import io.lineup.api.resource.Task;
import io.lineup.api.resource.TaskStatus;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Endpoints and tasks through the client, against a real server, Redis and HTTP target. */
class DispatchClientTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static TestServer server;
  static LineupClient admin;
  static CountingTarget target;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
    admin = server.adminClient();
    target = CountingTarget.start();
  }

  @AfterAll
  static void stop() {
    admin.close();
    server.close();
    target.close();
  }

  static EndpointName endpointFor(String prefix) {
    EndpointName name = EndpointName.of("dispatch", RedisServerExtension.uniqueName(prefix));
    admin
        .dispatch()
        .putEndpoint(
            name,
            EndpointSettings.of(target.url() + "/api")
                .methods(List.of("POST", "GET"))
                .rate(50, Duration.ofSeconds(1))
                .concurrency(4)
                .maxAttempts(2));
    return name;
  }

  @Test
  void anEndpointIsPutReadListedAndDeleted() {
    EndpointName name = endpointFor("crud");

    Endpoint read = admin.dispatch().endpoint(name);
    assertThat(read.namespace() + "/" + read.endpoint()).isEqualTo(name.toString());
    assertThat(read.baseUrl()).isEqualTo(target.url() + "/api");
    assertThat(read.methods()).containsExactlyInAnyOrder("POST", "GET");
    assertThat(read.rate()).isEqualTo(50);
    assertThat(read.periodMs()).isEqualTo(Duration.ofSeconds(1).toMillis());
    assertThat(read.concurrency()).isEqualTo(4);
    assertThat(read.maxAttempts()).isEqualTo(2);
    assertThat(read.circuitBreakerState().state()).isEqualTo("closed");
    assertThat(admin.dispatch().endpoints("dispatch"))
        .extracting(Endpoint::endpoint)
        .contains(name.name());

    admin.dispatch().deleteEndpoint(name);
    assertThatThrownBy(() -> admin.dispatch().endpoint(name)).isInstanceOf(NotFoundException.class);
  }

  @Test
  void anEndpointIsPausedResumedAndItsCircuitResetThroughTheClient() {
    EndpointName name = endpointFor("controls");

    assertThat(admin.dispatch().pauseEndpoint(name).paused()).isTrue();
    assertThat(admin.dispatch().endpoint(name).paused()).isTrue();
    assertThat(admin.dispatch().resumeEndpoint(name).paused()).isFalse();
    Endpoint reset = admin.dispatch().resetCircuit(name);
    assertThat(reset.circuitBreakerState().state()).isEqualTo("closed");
    assertThat(reset.circuitBreakerState().consecutiveFailures()).isZero();
  }

  @Test
  void anEndpointsFairnessAndATasksKeyAreSetAndReadBack() {
    EndpointName name =
        EndpointName.of("dispatch", RedisServerExtension.uniqueName("fair").replace(':', '-'));
    admin
        .dispatch()
        .putEndpoint(
            name,
            EndpointSettings.of(target.url() + "/api")
                .paused(true)
                .fairness(2, 10, Duration.ofSeconds(1), 500));

    Endpoint.Fairness fairness = admin.dispatch().endpoint(name).fairness();
    Task task = admin.dispatch().submit(name, NewTask.post("/invoice").key("customer-42")).task();

    assertThat(fairness).isEqualTo(new Endpoint.Fairness(true, 2, 10, 1000, 500));
    assertThat(task.key()).isEqualTo("customer-42");
    assertThat(admin.dispatch().task(name, task.id()).key()).isEqualTo("customer-42");
  }

  @Test
  void anEndpointsAdaptiveConcurrencyIsSetAndReadBackWithItsLimitInForce() {
    EndpointName name =
        EndpointName.of("dispatch", RedisServerExtension.uniqueName("adaptive").replace(':', '-'));
    admin
        .dispatch()
        .putEndpoint(
            name,
            EndpointSettings.of(target.url() + "/api")
                .paused(true)
                .concurrency(8)
                .adaptive(2, 8, Duration.ofMillis(300), 3, Duration.ofSeconds(2), 0.7));

    Endpoint.Adaptive adaptive = admin.dispatch().endpoint(name).adaptive();

    assertThat(adaptive.min()).isEqualTo(2);
    assertThat(adaptive.max()).isEqualTo(8);
    assertThat(adaptive.targetLatencyMs()).isEqualTo(300);
    assertThat(adaptive.windowMs()).isEqualTo(2000);
    assertThat(adaptive.decrease()).isEqualTo(0.7);
    assertThat(adaptive.limit()).isEqualTo(3);
    assertThat(adaptive.reason()).isEqualTo("start: 3");
    assertThat(adaptive.holdUntil()).isNull();
  }

  @Test
  void aSubmittedTaskIsSentOnceAndItsResponseIsReadBackByLongPoll() {
    EndpointName name = endpointFor("flow");
    try (LineupClient caller =
        LineupClient.connect(server.url(), server.tokenFor("dispatch", 5, "publish"))) {
      TaskSubmission submitted =
          caller
              .dispatch()
              .submit(
                  name,
                  NewTask.post("/render?size=1024")
                      .jsonBody("{\"prompt\": \"a red bicycle\"}")
                      .header("X-Order", "4711")
                      .priority(5));
      assertThat(submitted.created()).isTrue();
      assertThat(submitted.task().priority()).isEqualTo(5);
      assertThat(submitted.task().endpoint()).isEqualTo(name.name());

      Task done = caller.dispatch().task(name, submitted.task().id(), Duration.ofSeconds(20));

      assertThat(done.status()).isEqualTo(TaskStatus.SUCCEEDED);
      assertThat(done.status().ended()).isTrue();
      assertThat(done.attempts()).hasSize(1);
      assertThat(done.attempts().get(0).status()).isEqualTo(200);
      assertThat(done.response().status()).isEqualTo(200);
      assertThat(new String(done.response().bodyBytes(), java.nio.charset.StandardCharsets.UTF_8))
          .startsWith("{\"ok\":true");
      assertThat(done.method()).isEqualTo("POST");
      assertThat(done.path()).isEqualTo("/render?size=1024");
      assertThat(done.deliveryKey()).isEqualTo(submitted.task().deliveryKey()).hasSize(36);
      assertThat(target.received())
          .filteredOn(r -> r.path().equals("/api/render?size=1024"))
          .singleElement()
          .satisfies(r -> {
            assertThat(r.idempotencyKey()).isEqualTo(done.deliveryKey());
            assertThat(r.taskId()).isEqualTo(done.id());
            assertThat(r.body()).isEqualTo("{\"prompt\":\"a red bicycle\"}");
          });
    }
  }

  @Test
  void aRepeatedIdempotencyKeyAnswersTheFirstTask() {
    EndpointName name = endpointFor("idem");
    NewTask task = NewTask.get("/stock/17").idempotencyKey("stock-17").delay(Duration.ofMinutes(5));

    TaskSubmission first = admin.dispatch().submit(name, task);
    TaskSubmission again = admin.dispatch().submit(name, task);

    assertThat(first.created()).isTrue();
    assertThat(again.created()).isFalse();
    assertThat(again.task().id()).isEqualTo(first.task().id());
  }

  @Test
  void aDelayedTaskCanBeCancelledBeforeItIsEverSent() {
    EndpointName name = endpointFor("cancel");
    Task queued =
        admin
            .dispatch()
            .submit(name, NewTask.post("/never").textBody("x").delay(Duration.ofMinutes(5)))
            .task();
    assertThat(queued.status()).isEqualTo(TaskStatus.QUEUED);

    TaskCancelResult cancelled = admin.dispatch().cancel(name, queued.id());

    assertThat(cancelled.id()).isEqualTo(queued.id());
    assertThat(cancelled.previousStatus()).isEqualTo(TaskStatus.QUEUED);
    assertThat(admin.dispatch().task(name, queued.id()).status()).isEqualTo(TaskStatus.CANCELLED);
    assertThatThrownBy(() -> admin.dispatch().cancel(name, queued.id()))
        .isInstanceOf(JobFinishedException.class);
    assertThat(target.received()).noneMatch(r -> r.path().equals("/api/never"));
  }

  @Test
  void aTaskWithACallbackIsReportedToTheCallbackUrlWhenItEnds() {
    EndpointName name = endpointFor("callback");
    String secret =
        admin.dispatch().allowCallbacks("dispatch", List.of(target.url() + "/hooks/"), false);
    assertThat(secret == null || secret.startsWith("whsec_")).isTrue();

    Task task =
        admin
            .dispatch()
            .submit(name, NewTask.post("/work").callbackUrl(target.url() + "/hooks/done"))
            .task();

    assertThat(task.callbackUrl()).isEqualTo(target.url() + "/hooks/done");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> target.received().stream().anyMatch(r -> r.path().equals("/hooks/done")));
    assertThat(target.received())
        .filteredOn(r -> r.path().equals("/hooks/done"))
        .first()
        .satisfies(r -> {
          assertThat(r.webhookId()).isEqualTo("task_" + task.deliveryKey());
          assertThat(r.body()).contains("\"status\":\"succeeded\"");
        });
  }

  @Test
  void aDeadlineThatHasPassedIsRefusedWithTheEarliestStartAndNothingIsQueued() {
    EndpointName name = endpointFor("deadline");
    long before = System.currentTimeMillis();
    assertThatThrownBy(() ->
            admin
                .dispatch()
                .submit(name, NewTask.post("/late").startBy(java.time.Instant.ofEpochMilli(1000))))
        .isInstanceOfSatisfying(
            DeadlineUnreachableException.class,
            e -> {
              assertThat(e.status()).isEqualTo(429);
              assertThat(e.field()).isEqualTo("start_by");
              assertThat(e.earliestStartAt().toEpochMilli()).isGreaterThan(before - 60_000);
            });
    assertThat(admin.dispatch().endpoint(name).tasks().queued()).isZero();
    TaskSubmission later =
        admin
            .dispatch()
            .submit(
                name,
                NewTask.post("/in-time")
                    .finishBy(java.time.Instant.ofEpochMilli(before + 3_600_000)));
    assertThat(later.created()).isTrue();
  }

  @Test
  void refusalsArriveAsTypedExceptionsNamingTheField() {
    EndpointName name = endpointFor("bad");
    EndpointName unknown = EndpointName.of("dispatch", "no-such-endpoint");
    try (LineupClient normal =
        LineupClient.connect(server.url(), server.tokenFor("dispatch", 0, "publish"))) {
      assertThatThrownBy(() -> normal.dispatch().submit(name, NewTask.post("/x").priority(9)))
          .isInstanceOfSatisfying(
              ForbiddenException.class,
              e -> assertThat(e.code()).isEqualTo("priority_not_allowed"));
    }
    assertThatThrownBy(() -> admin.dispatch().submit(name, NewTask.post("/../etc/passwd")))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("path"));
    assertThatThrownBy(() ->
            admin.dispatch().submit(name, NewTask.post("/x").callbackUrl("http://evil.example/")))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("callback_url"));
    assertThatThrownBy(() -> admin.dispatch().submit(unknown, NewTask.post("/x")))
        .isInstanceOfSatisfying(
            NotFoundException.class, e -> assertThat(e.field()).isEqualTo("endpoint"));
    assertThatThrownBy(
            () -> admin.dispatch().putEndpoint(name, EndpointSettings.of("ftp://files.example/")))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("base_url"));
    assertThatThrownBy(() -> admin.dispatch().task(name, "~1", Duration.ofMinutes(6)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
