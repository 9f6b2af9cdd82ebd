package io.lineup.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.api.TraceContext;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.dispatch.egress.EgressAllowList;
import io.lineup.dispatch.egress.EgressPolicy;
import io.lineup.dispatch.egress.RedisServers;
import io.lineup.testing.RedisServerExtension;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.http.HttpField;
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

/**
 * A task submitted with a trace context keeps it, and each attempt sends it to the endpoint in
 * {@code traceparent} and {@code tracestate}, in place of any the task's own headers name.
 */
class TaskTraceTest {
  @RegisterExtension static final RedisServerExtension redis = RedisServerExtension.withDefaults();

  private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  private static final String STATE = "rojo=00f067aa0ba902b7";

  /** The trace headers of each request the target got, "traceparent|tracestate". */
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
          public boolean handle(Request request, Response response, Callback callback) {
            List<String> parents = request.getHeaders().getValuesList("traceparent");
            HttpField state = request.getHeaders().getField("tracestate");
            received.add(String.join(",", parents) + "|" + (state == null ? "" : state.getValue()));
            response.setStatus(204);
            callback.succeeded();
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
    key = new EndpointKey(RedisServerExtension.uniqueName("ns"), "traced");
    int port = connector.getLocalPort();
    dispatch.endpoints().put(key, EndpointSpec.of(URI.create("http://127.0.0.1:" + port + "/")));
  }

  @AfterEach
  void stop() throws Exception {
    dispatch.close();
    lineup.close();
    target.stop();
  }

  @Test
  void theEndpointReceivesTheTraceContextTheTaskWasSubmittedWith() throws Exception {
    String id =
        dispatch.tasks().submit(key, aTask(Map.of()), new TraceContext(PARENT, STATE)).task().id();

    Task done = dispatch.tasks().task(key, id, Tasks.MAX_WAIT_MS, true);
    assertThat(done.status()).isEqualTo(TaskStatus.SUCCEEDED);
    assertThat(received).containsExactly(PARENT + "|" + STATE);
  }

  @Test
  void theStoredContextReplacesATraceparentTheTaskNamesItself() throws Exception {
    String own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    String id =
        dispatch
            .tasks()
            .submit(key, aTask(Map.of("TraceParent", own)), new TraceContext(PARENT, null))
            .task()
            .id();

    dispatch.tasks().task(key, id, Tasks.MAX_WAIT_MS, true);
    assertThat(received).containsExactly(PARENT + "|");
  }

  @Test
  void aTaskWithoutAContextSendsTheHeadersItNamesAsTheyAre() throws Exception {
    String own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    String id = dispatch.tasks().submit(key, aTask(Map.of("traceparent", own))).task().id();

    dispatch.tasks().task(key, id, Tasks.MAX_WAIT_MS, true);
    assertThat(received).containsExactly(own + "|");
  }

  private static TaskSubmission aTask(Map<String, String> headers) {
    return new TaskSubmission(
        new TaskRequest(
            "POST",
            "/hook",
            headers,
            "text/plain",
            "hi".getBytes(StandardCharsets.UTF_8),
            null,
            TaskRequest.newDeliveryKey()),
        0,
        null,
        null,
        null);
  }
}
