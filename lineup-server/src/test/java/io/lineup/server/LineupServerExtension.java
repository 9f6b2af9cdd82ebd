package io.lineup.server;

import io.lineup.redis.RedisProcess;
import io.lineup.testing.RedisServerExtension;
import io.lineup.testing.TestRedis;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives a test class a running Lineup server on 127.0.0.1 and a free port, on a Redis of its own
 * (or the run's shared cluster), with a known admin token and a temporary data folder. Everything
 * starts before the class's first test; after its last test every server the extension started is
 * closed, the Redis stopped and the temporary folder deleted, whatever the tests did.
 *
 * <pre>{@code
 * @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();
 * ... server.admin().post("/v1/queues/shop/orders/jobs", "{\"payload\": 1}") ...
 * }</pre>
 */
final class LineupServerExtension implements BeforeAllCallback, AfterAllCallback {
  /** The admin token of every server the extension starts. */
  static final String ADMIN_TOKEN = "test-admin-token-0123456789";

  private final TestRedis redis;
  private final BeforeAllCallback redisStart;
  private final AfterAllCallback redisStop;
  private final List<LineupServer> started = new ArrayList<>();
  private UnaryOperator<ServerSettings.Builder> tune = settings -> settings;
  private Path folder;
  private int dataFolders;
  private LineupServer server;
  private Api admin;

  private <R extends TestRedis & BeforeAllCallback & AfterAllCallback> LineupServerExtension(
      R redis) {
    this.redis = redis;
    this.redisStart = redis;
    this.redisStop = redis;
  }

  /** A server on a redis-server of the class's own, without persistence. */
  static LineupServerExtension onItsOwnRedis() {
    return on(RedisServerExtension.withDefaults());
  }

  /**
   * A server on this Redis, which the extension starts and stops with the class: a {@link
   * RedisServerExtension} (given settings of its own if need be) or a {@link
   * io.lineup.testing.RedisClusterExtension}.
   */
  static <R extends TestRedis & BeforeAllCallback & AfterAllCallback> LineupServerExtension on(
      R redis) {
    return new LineupServerExtension(redis);
  }

  /**
   * Changes the settings of the class's server (not of those from {@link #startAnother}), e.g.
   * {@code withSettings(s -> s.logRequests(true))}; for use where the extension is declared.
   *
   * @return this extension
   */
  LineupServerExtension withSettings(UnaryOperator<ServerSettings.Builder> tune) {
    this.tune = tune;
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    try {
      redisStart.beforeAll(context);
      folder = Files.createTempDirectory("lineup-server-test-");
      server = startAnother(tune);
      admin = Api.adminOf(server);
    } catch (Exception | Error e) {
      // Half-started: undo what did start rather than leave it running.
      stopAll(context);
      throw e;
    }
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    stopAll(context);
  }

  /** The class's running server. */
  LineupServer running() {
    return started();
  }

  /** The HTTP port of the class's server. */
  int port() {
    return started().port();
  }

  /** The admin's API client for the class's server. */
  Api admin() {
    started();
    return admin;
  }

  /** {@code http://127.0.0.1:PORT} of the class's server. */
  String baseUrl() {
    return started().baseUrl();
  }

  /** The Redis the servers use. */
  TestRedis redis() {
    return redis;
  }

  /**
   * The redis-server process the servers use, to stop, restart or inspect it.
   *
   * @throws IllegalStateException on a cluster, which has several ({@code redis().nodes()})
   */
  RedisProcess redisProcess() {
    if (redis.isCluster()) {
      throw new IllegalStateException("A cluster has several processes: use redis().nodes()");
    }
    return redis.nodes().get(0);
  }

  /** The temporary folder holding every server's data folder; deleted after the class. */
  Path temporaryFolder() {
    if (folder == null) {
      throw new IllegalStateException("The folder is made before the test class's first test");
    }
    return folder;
  }

  /**
   * Settings for a server on the same Redis: 127.0.0.1, a free port, {@link #ADMIN_TOKEN}, a data
   * folder of its own in the temporary folder, and egress allowed to loopback ({@link
   * #TEST_EGRESS_ALLOW}).
   */
  ServerSettings.Builder settings() {
    Path dataDir = temporaryFolder().resolve("server-" + ++dataFolders);
    return ServerSettings.builder()
        .host("127.0.0.1")
        .port(0)
        .redisUrl(redis.uri())
        .adminToken(ADMIN_TOKEN)
        .dataDir(dataDir)
        .egressAllow(TEST_EGRESS_ALLOW);
  }

  /**
   * Starts one more server on the same Redis with {@link #settings()}; see {@link
   * #startAnother(UnaryOperator)}.
   */
  LineupServer startAnother() {
    return startAnother(settings -> settings);
  }

  /**
   * Starts one more server on the same Redis with {@link #settings()} changed by {@code tune}. The
   * extension closes it after the class; a test may close it before (closing twice is harmless).
   */
  LineupServer startAnother(UnaryOperator<ServerSettings.Builder> tune) {
    LineupServer another = LineupServer.start(tune.apply(settings()).build());
    started.add(another);
    return another;
  }

  /**
   * The egress the tests' servers allow: loopback, since the dispatch tests' targets are HTTP
   * servers on 127.0.0.1 that the tests start. The Redis port stays refused all the same; tests of
   * the default policy set {@code egressAllow(null)}.
   */
  static final String TEST_EGRESS_ALLOW = "127.0.0.0/8,::1";

  private LineupServer started() {
    if (server == null) {
      throw new IllegalStateException("The server starts before the test class's first test");
    }
    return server;
  }

  /** Closes the servers, then Redis, then deletes the folder; each step runs even if one fails. */
  private void stopAll(ExtensionContext context) throws Exception {
    List<Throwable> failures = new ArrayList<>();
    for (LineupServer each : started.reversed()) {
      try {
        each.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    started.clear();
    try {
      redisStop.afterAll(context);
    } catch (Exception e) {
      failures.add(e);
    }
    try {
      deleteFolder();
    } catch (UncheckedIOException e) {
      failures.add(e);
    }
    if (!failures.isEmpty()) {
      IllegalStateException failure =
          new IllegalStateException("Could not stop everything the server extension started");
      failures.forEach(failure::addSuppressed);
      throw failure;
    }
  }

  private void deleteFolder() {
    if (folder == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
      folder = null;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not delete the test folder " + folder, e);
    }
  }
}
