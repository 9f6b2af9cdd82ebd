package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.server.api.Route;
import io.lineup.server.auth.Access;
import io.lineup.server.auth.Authenticator;
import io.lineup.server.http.Draining;
import io.lineup.server.metrics.ServerMetrics;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The HTTP front on its own: a shutting-down server runs no handler for new requests. */
class HttpApiTest {

  @Test
  void handlersRunOnVirtualThreadsAndOnceTheShutdownBeganNoHandlerRuns() {
    AtomicInteger handled = new AtomicInteger();
    Draining draining = new Draining();
    AtomicBoolean onVirtualThread = new AtomicBoolean();
    List<Route> routes =
        List.of(
            Route.get(
                "/work",
                Access.open(),
                (ctx, principal) -> {
                  onVirtualThread.set(Thread.currentThread().isVirtual());
                  handled.incrementAndGet();
                }));
    try (HttpApi http =
        new HttpApi(
            ServerSettings.builder().host("127.0.0.1").port(0).build(),
            routes,
            null,
            new Authenticator(LineupServerExtension.ADMIN_TOKEN, null),
            new ServerMetrics(),
            draining,
            1024)) {
      Api api = new Api("http://127.0.0.1:" + http.port(), null);
      assertThat(api.get("/work").status()).isEqualTo(200);
      assertThat(handled).hasValue(1);
      assertThat(onVirtualThread).as("handlers run on virtual threads").isTrue();

      draining.start();

      Reply refused = api.get("/work");
      assertThat(refused.status()).isEqualTo(503);
      assertThat(refused.field("error")).isEqualTo("shutting_down");
      assertThat(refused.header("Connection")).isEqualTo("close");
      assertThat(handled).as("the handler did not run").hasValue(1);
    }
  }
}
