package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.QueueName;
import io.lineup.server.api.ApiContext;
import io.lineup.server.api.JobHandlers;
import io.lineup.server.api.LaneAction;
import io.lineup.server.api.Route;
import io.lineup.server.api.RouteTable;
import io.lineup.server.archive.JobArchive;
import io.lineup.server.auth.Access;
import io.lineup.server.auth.Authenticator;
import io.lineup.server.auth.Scope;
import io.lineup.server.http.Draining;
import io.lineup.server.metrics.ServerMetrics;
import io.lineup.testing.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HTTP front on its own: a shutting-down server runs no handler for new requests, and a plain
 * publish is served on the core lane, not by the route.
 */
class HttpApiTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

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

  @Test
  void aPlainPublishIsServedOnTheLaneAndOnlyAPublishWithAQueryReachesTheRoute() {
    AtomicInteger byRoute = new AtomicInteger();
    try (Lineup lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build())) {
      JobHandlers jobs = new JobHandlers(context(lineup));
      List<Route> routes =
          List.of(
              Route.post(
                      RouteTable.PUBLISH_PATH,
                      Access.namespace(Scope.PUBLISH),
                      (ctx, principal) -> {
                        byRoute.incrementAndGet();
                        ctx.status(299);
                      })
                  .onLane(jobs::publishOnLane));
      try (HttpApi http = httpApi(routes)) {
        Api api = new Api("http://127.0.0.1:" + http.port(), LineupServerExtension.ADMIN_TOKEN);

        Reply plain =
            api.post("/v1/queues/shop/orders/jobs", "{\"id\": \"on-the-lane\", \"payload\": 1}");
        assertThat(plain.status()).as(plain.toString()).isEqualTo(201);
        assertThat(byRoute).as("the route did not run").hasValue(0);
        assertThat(lineup.get(QueueName.of("shop", "orders"), "on-the-lane")).isPresent();

        Reply withQuery =
            api.post("/v1/queues/shop/orders/jobs?durable_replicas=0", "{\"payload\": 1}");
        assertThat(withQuery.status()).isEqualTo(299);
        assertThat(byRoute).as("the route ran").hasValue(1);
      }
    }
  }

  @Test
  void eachRouteWithALaneIsServedOnItsOwnLaneAndAPathOfNoneReachesTheRoutes() {
    List<String> byRoute = new CopyOnWriteArrayList<>();
    List<Route> routes =
        List.of(
            laneAnswering(RouteTable.PUBLISH_PATH, "{\"lane\":\"publish\"}", byRoute),
            laneAnswering(RouteTable.SUBMIT_PATH, "{\"lane\":\"submit\"}", byRoute),
            Route.post(
                "/v1/queues/{ns}/{queue}/leases",
                Access.namespace(Scope.CONSUME),
                (ctx, principal) -> {
                  byRoute.add(ctx.path());
                  ctx.status(299);
                }));
    try (HttpApi http = httpApi(routes)) {
      Api api = new Api("http://127.0.0.1:" + http.port(), LineupServerExtension.ADMIN_TOKEN);

      assertThat(api.post("/v1/queues/shop/orders/jobs", "{}").field("lane")).isEqualTo("publish");
      assertThat(api.post("/v1/endpoints/shop/render/tasks", "{}").field("lane"))
          .isEqualTo("submit");
      assertThat(byRoute).as("no route ran").isEmpty();

      assertThat(api.post("/v1/endpoints/shop/render/tasks?x=1", "{}").status()).isEqualTo(299);
      assertThat(api.post("/v1/queues/shop/orders/leases", "{}").status()).isEqualTo(299);
      assertThat(byRoute)
          .containsExactly("/v1/endpoints/shop/render/tasks", "/v1/queues/shop/orders/leases");
    }
  }

  private static Route laneAnswering(String path, String answer, List<String> byRoute) {
    return Route.post(
            path,
            Access.namespace(Scope.PUBLISH),
            (ctx, principal) -> {
              byRoute.add(ctx.path());
              ctx.status(299);
            })
        .onLane((ns, name, body, principal) ->
            new LaneAction.Answer(202, answer.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aLaneOnARouteThatIsNotAPostIsRefusedAtStart() {
    List<Route> routes =
        List.of(
            Route.get(RouteTable.PUBLISH_PATH, Access.open(), (ctx, principal) -> ctx.status(200))
                .onLane((ns, name, body, principal) -> new LaneAction.Answer(200, new byte[0])));

    assertThatThrownBy(() -> httpApi(routes).close())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("only a POST route has a lane");
  }

  private static HttpApi httpApi(List<Route> routes) {
    return new HttpApi(
        ServerSettings.builder().host("127.0.0.1").port(0).build(),
        routes,
        new Authenticator(LineupServerExtension.ADMIN_TOKEN, null),
        new ServerMetrics(),
        new Draining(),
        1 << 20);
  }

  private static ApiContext context(Lineup lineup) {
    return new ApiContext(
        lineup,
        null,
        null,
        new ApiContext.RequestLimits(1 << 20, 1024),
        null,
        null,
        null,
        JobArchive.off(lineup));
  }
}
