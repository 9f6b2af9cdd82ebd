package io.lineup.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.api.ErrorCode;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.JobState;
import io.lineup.core.model.ScheduleSpec;
import io.lineup.dispatch.egress.EgressAllowList;
import io.lineup.dispatch.egress.EgressPolicy;
import io.lineup.dispatch.egress.RedisServers;
import io.lineup.testing.RedisServerExtension;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Dispatch used directly from Java: no HTTP server of Lineup's, a real Redis and a real target. */
class DispatcherJavaApiTest {
  @RegisterExtension static final RedisServerExtension redis = RedisServerExtension.withDefaults();

  private final List<String> received = new CopyOnWriteArrayList<>();
  private Server target;
  private Lineup lineup;
  private Dispatcher dispatch;
  private EndpointKey key;

  @BeforeEach
  void start() throws Exception {
    target = new Server();
    ServerConnector connector = new ServerConnector(target);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    target.addConnector(connector);
    target.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            String body = Content.Source.asString(request, StandardCharsets.UTF_8);
            received.add(
                request.getMethod() + " " + request.getHttpURI().getPathQuery() + " " + body);
            response.setStatus(200);
            response.getHeaders().put("Content-Type", "application/json");
            Content.Sink.write(response, true, "{\"sent\":true}", callback);
            return true;
          }
        });
    target.start();
    lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build());
    dispatch =
        new Dispatcher(
            lineup,
            1 << 20,
            TaskArchive.redisOnly(lineup),
            new EgressPolicy(EgressAllowList.parse("127.0.0.1"), RedisServers.of(redis.uri())));
    dispatch.start();
    key = new EndpointKey(RedisServerExtension.uniqueName("ns"), "mailer");
  }

  @AfterEach
  void stop() throws Exception {
    dispatch.close();
    lineup.close();
    target.stop();
  }

  private URI targetUrl() {
    int port = ((ServerConnector) target.getConnectors()[0]).getLocalPort();
    return URI.create("http://127.0.0.1:" + port + "/hooks");
  }

  @Test
  void aTaskSubmittedFromJavaIsSentToItsTargetAndReadBackWithTheAnswer() throws Exception {
    assertThat(dispatch.endpoints().put(key, EndpointSpec.of(targetUrl()))).isTrue();

    Tasks.Submitted submitted =
        dispatch
            .tasks()
            .submit(
                key,
                TaskSubmission.of(
                    null, "/send?to=ada", "text/plain", "hello".getBytes(StandardCharsets.UTF_8)));

    assertThat(submitted.created()).isTrue();
    assertThat(submitted.task().status()).isEqualTo(TaskStatus.QUEUED);
    assertThat(submitted.task().request().method()).isEqualTo("POST");
    Task done = dispatch.tasks().task(key, submitted.task().id(), Tasks.MAX_WAIT_MS, true);
    assertThat(done.status()).isEqualTo(TaskStatus.SUCCEEDED);
    assertThat(done.attempts()).hasSize(1);
    assertThat(done.response().status()).isEqualTo(200);
    assertThat(done.response().body())
        .isEqualTo(new TaskResponse.KeptBody(TaskResponse.Form.JSON, "{\"sent\":true}"));
    assertThat(received).containsExactly("POST /hooks/send?to=ada hello");
    assertThat(dispatch.endpoints().find(key).orElseThrow().tasks().finished()).isEqualTo(1);
  }

  @Test
  void aDelayedTaskCancelledFromJavaIsNeverSent() throws Exception {
    dispatch.endpoints().put(key, EndpointSpec.of(targetUrl()));
    TaskSubmission later =
        new TaskSubmission(
            TaskSubmission.of("POST", "", null, new byte[0]).request(), 0, 60_000L, null, null);
    String id = dispatch.tasks().submit(key, later).task().id();

    assertThat(dispatch.tasks().cancel(key, id)).isEqualTo(JobState.DELAYED);

    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> dispatch.tasks().task(key, id, 0, false).status() == TaskStatus.CANCELLED);
    assertThat(received).isEmpty();
  }

  @Test
  void badInputAndUnknownNamesAreDomainExceptions() {
    assertThatThrownBy(() -> dispatch.endpoints().spec(key))
        .isInstanceOf(EndpointNotFoundException.class)
        .hasMessageContaining("no endpoint mailer");
    dispatch.endpoints().put(key, EndpointSpec.of(targetUrl()));

    assertThatThrownBy(() ->
            dispatch.tasks().submit(key, TaskSubmission.of("DELETE", "/x", null, new byte[0])))
        .isInstanceOfSatisfying(
            DispatchInputException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_FIELD);
              assertThat(e.field()).isEqualTo("method");
            });
    assertThatThrownBy(() -> dispatch.tasks().task(key, "nope", 0, false))
        .isInstanceOf(TaskNotFoundException.class);
    assertThatThrownBy(() ->
            dispatch.endpoints().put(key, EndpointSpec.of(URI.create("http://10.1.2.3:8080/"))))
        .isInstanceOfSatisfying(
            DispatchInputException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.EGRESS_REFUSED));
  }

  @Test
  void anEndpointDeletedFromJavaTakesItsRecurringSchedulesWithIt() {
    dispatch.endpoints().put(key, EndpointSpec.of(targetUrl()));
    RecurringTask task =
        dispatch.tasks().recurring(key, TaskSubmission.of("POST", "/nightly", null, new byte[0]));
    // Paused: no tick needs the target here.
    for (String name : List.of("nightly", "hourly")) {
      lineup
          .schedules()
          .upsert(
              key.queue(),
              ScheduleSpec.every(name, Duration.ofHours(1))
                  .payload(task.payload())
                  .priority(task.priority())
                  .ttl(task.ttl())
                  .paused(true)
                  .build());
    }
    EndpointKey other = new EndpointKey(key.namespace(), "billing");
    dispatch.endpoints().put(other, EndpointSpec.of(targetUrl()));
    lineup
        .schedules()
        .upsert(
            other.queue(),
            ScheduleSpec.every("kept", Duration.ofHours(1))
                .payload(
                    dispatch
                        .tasks()
                        .recurring(other, TaskSubmission.of("POST", "/kept", null, new byte[0]))
                        .payload())
                .paused(true)
                .build());
    assertThat(lineup.schedules().list(key.queue())).hasSize(2);

    assertThat(dispatch.endpoints().delete(key)).isTrue();

    assertThat(lineup.schedules().list(key.queue())).isEmpty();
    assertThat(lineup.schedules().get(key.queue(), "nightly")).isEmpty();
    // Another endpoint's schedules stay.
    assertThat(lineup.schedules().list(other.queue()))
        .extracting(io.lineup.core.model.Schedule::name)
        .containsExactly("kept");
    // An endpoint put again under the name starts with no schedule.
    dispatch.endpoints().put(key, EndpointSpec.of(targetUrl()));
    assertThat(lineup.schedules().list(key.queue())).isEmpty();
    assertThat(received).isEmpty();
  }
}
