package io.lineup.server;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.dispatch.AdaptiveConcurrency;
import io.lineup.dispatch.BreakerState;
import io.lineup.dispatch.Dispatcher;
import io.lineup.dispatch.egress.EgressPolicy;
import io.lineup.dispatch.egress.RedisServers;
import io.lineup.rooms.Rooms;
import io.lineup.server.api.ApiContext;
import io.lineup.server.api.RouteTable;
import io.lineup.server.archive.JobArchive;
import io.lineup.server.auth.AdminToken;
import io.lineup.server.auth.Authenticator;
import io.lineup.server.auth.NamespaceStore;
import io.lineup.server.auth.TokenStore;
import io.lineup.server.consumers.ConsumerActivity;
import io.lineup.server.history.QueueHistory;
import io.lineup.server.http.Draining;
import io.lineup.server.http.LeaseWaiters;
import io.lineup.server.http.RequestBody;
import io.lineup.server.metrics.EndpointAdaptiveLimit;
import io.lineup.server.metrics.EndpointBreaker;
import io.lineup.server.metrics.ServerMetrics;
import io.lineup.server.redis.EmbeddedRedis;
import io.lineup.server.redis.RedisStartupCheck;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Lineup server: the engine, the HTTP API and, without {@code LINEUP_REDIS_URL}, its own
 * Redis. Start with {@link #start(ServerSettings)}; {@link #close()} shuts down gracefully: it
 * stops accepting, ends long-polls (they answer 204), waits for requests in progress (up to the
 * shutdown grace), then closes the engine and the embedded Redis.
 */
public final class LineupServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LineupServer.class);

  private final ServerSettings settings;
  private final DataFolderLock folderLock;
  private final EmbeddedRedis embedded;
  private final Lineup lineup;
  private final String adminToken;
  private final Draining draining = new Draining();
  private final LeaseWaiters waiters = new LeaseWaiters();
  private final List<String> redisWarnings;
  private final HttpApi http;
  private final Dispatcher dispatch;
  private final Rooms rooms;
  private final QueueHistory history;
  private final ConsumerActivity consumers;
  private final JobArchive archive;
  private boolean closed;

  private LineupServer(ServerSettings settings) {
    this.settings = settings;
    DataFolderLock lock = null;
    EmbeddedRedis redis = null;
    Lineup engine = null;
    Dispatcher dispatch = null;
    Rooms rooms = null;
    QueueHistory history = null;
    ConsumerActivity consumers = null;
    JobArchive archive = null;
    try {
      String redisUrl = settings.redisUrl();
      if (settings.embeddedRedis()) {
        // Before anything else: a second server on the same folder would stop this one's Redis.
        lock = DataFolderLock.acquire(settings.dataDir());
      }
      checkPortFree(settings.host(), settings.port());
      if (settings.embeddedRedis()) {
        redis = EmbeddedRedis.start(settings.dataDir());
        LOG.info(redis.announcement());
        redisUrl = redis.uri();
      }
      ServerMetrics metrics = new ServerMetrics();
      engine =
          Lineup.connect(
              LineupOptions.builder(redisUrl)
                  .maxPayloadBytes(settings.maxPayloadBytes())
                  .commandTimeout(settings.redisTimeout())
                  .latencyListener(metrics.redisLatencyListener())
                  .build());
      this.redisWarnings = RedisStartupCheck.run(engine);
      this.adminToken = AdminToken.resolve(settings.adminToken(), settings.dataDir());
      Clock clock = Clock.systemUTC();
      TokenStore tokens = new TokenStore(engine, clock);
      int maxBody = RequestBody.limitFor(settings.maxPayloadBytes());
      archive =
          settings.archiving()
              ? JobArchive.start(engine, settings.archive(), instanceId())
              : JobArchive.off(engine);
      metrics.watchArchive(archive.archive());
      EgressPolicy egress = new EgressPolicy(settings.egressAllowList(), RedisServers.of(redisUrl));
      LOG.info("Dispatch and callbacks may reach {}", egress.describe());
      dispatch = new Dispatcher(engine, settings.maxPayloadBytes(), archive, egress);
      rooms = new Rooms(engine);
      history = new QueueHistory(engine);
      consumers = new ConsumerActivity(engine, instanceId());
      ApiContext api =
          new ApiContext(
              engine,
              new ApiContext.AuthStores(tokens, new NamespaceStore(engine, clock)),
              new ApiContext.ServerState(metrics, waiters, draining, consumers),
              new ApiContext.RequestLimits(maxBody, settings.maxPayloadBytes()),
              dispatch,
              rooms,
              history,
              archive);
      metrics.watchWaiters(waiters::count);
      Rooms watched = rooms;
      metrics.watchRoomStreams(
          () -> watched.followers().values().stream().mapToInt(Integer::intValue).sum());
      Dispatcher followed = dispatch;
      metrics.watchBreakers(() ->
          followed.breakers().known().entrySet().stream()
              .map(e ->
                  new EndpointBreaker(
                      e.getKey().namespace(),
                      e.getKey().name(),
                      e.getValue().state() != BreakerState.State.CLOSED))
              .toList());
      metrics.watchAdaptiveLimits(() -> {
        var limits = followed.adaptive().limits();
        var moves = followed.adaptive().moves();
        var keys = new java.util.LinkedHashSet<io.lineup.dispatch.EndpointKey>(limits.keySet());
        keys.addAll(moves.keySet());
        return keys.stream()
            .map(k -> {
              var state = limits.get(k);
              var made = moves.getOrDefault(k, new AdaptiveConcurrency.Moves(0, 0));
              return new EndpointAdaptiveLimit(
                  k.namespace(),
                  k.name(),
                  state == null ? 0 : state.limit(),
                  made.up(),
                  made.down());
            })
            .toList();
      });
      this.http =
          new HttpApi(
              settings,
              RouteTable.routes(api),
              new Authenticator(adminToken, tokens),
              metrics,
              draining,
              maxBody);
      dispatch.start();
      rooms.start();
      history.start();
      consumers.start();
      this.history = history;
      this.consumers = consumers;
      this.dispatch = dispatch;
      this.rooms = rooms;
      this.archive = archive;
      this.embedded = redis;
      this.lineup = engine;
      this.folderLock = lock;
    } catch (RuntimeException | Error e) {
      if (dispatch != null) {
        dispatch.close();
      }
      if (rooms != null) {
        rooms.close();
      }
      if (history != null) {
        history.close();
      }
      if (consumers != null) {
        consumers.close();
      }
      if (archive != null) {
        archive.close();
      }
      if (engine != null) {
        engine.close();
      }
      if (redis != null) {
        redis.close();
      }
      if (lock != null) {
        lock.close();
      }
      throw e;
    }
    LOG.info("Lineup listening on {} ({})", baseUrl(), describeBinding(settings.host()));
  }

  /**
   * Starts a server.
   *
   * @throws StartupException when another server holds the data folder (embedded mode; nothing is
   *     touched then) or the port is taken
   * @throws io.lineup.core.model.RedisUnavailableException when Redis cannot be reached
   * @throws IllegalStateException when the embedded Redis cannot start
   */
  public static LineupServer start(ServerSettings settings) {
    return new LineupServer(settings);
  }

  /** The HTTP port (the one picked when the settings said 0). */
  public int port() {
    return http.port();
  }

  /**
   * Where this machine reaches the server: {@code http://127.0.0.1:PORT} when it is bound to every
   * interface, else {@code http://HOST:PORT} of the bound address.
   */
  public String baseUrl() {
    return "http://" + displayHost(settings.host()) + ":" + port();
  }

  /** The admin token in force. */
  public String adminToken() {
    return adminToken;
  }

  /** The warnings the Redis start-up check logged. */
  public List<String> redisWarnings() {
    return redisWarnings;
  }

  /** The embedded Redis's announcement, or null when an external Redis is used. */
  public String embeddedRedisAnnouncement() {
    return embedded == null ? null : embedded.announcement();
  }

  /** The queue history this server samples and serves; closing it stops the sampling. */
  QueueHistory history() {
    return history;
  }

  /**
   * This instance's name among the archivers: host and process id. A restarted server gets a new
   * name; what its previous life had read and not archived is taken over after the claim idle time.
   */
  private static String instanceId() {
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "localhost";
    }
    return host + "-" + ProcessHandle.current().pid();
  }

  /** Requests the HTTP server is serving now (read, not yet answered). */
  int requestsInProgress() {
    return http.requestsInProgress();
  }

  /** Long-polls waiting now. */
  public int waitingLeases() {
    return waiters.count();
  }

  /** Stops gracefully; safe to call twice. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    LOG.info("Shutting down: no new requests, ending long-polls, finishing requests in progress");
    draining.start();
    http.stopAccepting();
    waiters.interruptAll();
    http.close();
    // After the HTTP side: dispatchers finish their requests (or put the tasks back in line).
    dispatch.close();
    rooms.close();
    history.close();
    consumers.close();
    // Before the engine: the archiver finishes its batch (what it did not acknowledge stays in the
    // outboxes for the next start or another instance).
    archive.close();
    lineup.close();
    if (embedded != null) {
      embedded.close();
    }
    if (folderLock != null) {
      folderLock.close(); // Last: the folder is free once its Redis has stopped.
    }
    LOG.info("Lineup stopped");
  }

  /**
   * Fails fast, before Redis is started, when the port is taken; Jetty binds it for real later.
   *
   * @throws StartupException when the address cannot be bound
   */
  private static void checkPortFree(String host, int port) {
    if (port == 0) {
      return;
    }
    try (ServerSocket probe = new ServerSocket()) {
      // As Jetty binds: a closed connection's TIME_WAIT is no conflict, a listening socket is.
      probe.setReuseAddress(true);
      probe.bind(new InetSocketAddress(host, port));
    } catch (IOException e) {
      throw StartupException.portTaken(host, port, e);
    }
  }

  private static boolean isWildcard(String host) {
    return "0.0.0.0".equals(host) || "::".equals(host) || "[::]".equals(host) || host.isBlank();
  }

  private static String displayHost(String host) {
    if (isWildcard(host)) {
      return "127.0.0.1";
    }
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  /** What the bound address means, for the start-up log line. */
  private static String describeBinding(String host) {
    if (isWildcard(host)) {
      return "bound to "
          + host
          + ": every interface, other machines can connect; LINEUP_HOST=127.0.0.1 serves this"
          + " machine only";
    }
    if ("127.0.0.1".equals(host) || "::1".equals(host) || "localhost".equals(host)) {
      return "bound to "
          + host
          + ": this machine only; LINEUP_HOST=0.0.0.0 serves other machines, with TLS in front as"
          + " docs/operations.md shows";
    }
    return "bound to " + host;
  }
}
