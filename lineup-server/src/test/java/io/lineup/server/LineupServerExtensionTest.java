package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.lineup.redis.RedisProcess;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The server extension leaves nothing behind: a test class that uses it is run as JUnit runs any
 * test class, and afterwards its servers no longer listen, its Redis is stopped and its temporary
 * folder, data folders included, is gone.
 */
class LineupServerExtensionTest {

  @Test
  void afterItsTestClassEveryServerIsClosedRedisIsStoppedAndTheTemporaryFolderDeleted() {
    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(UsesTheExtension.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(1).failed(0));

    assertThat(UsesTheExtension.folders).hasSize(1);
    assertThat(UsesTheExtension.folders.get(0)).doesNotExist();
    assertThat(UsesTheExtension.redis).hasSize(1);
    RedisProcess redis = UsesTheExtension.redis.get(0);
    assertThat(redis.isRunning()).isFalse();
    assertThat(redis.dataDir()).doesNotExist();
    assertThat(UsesTheExtension.servers).hasSize(2);
    for (Api api : UsesTheExtension.servers) {
      assertThatThrownBy(() -> api.get("/health"))
          .as("nothing listens any more")
          .hasCauseInstanceOf(ConnectException.class);
    }
  }

  // Run by the test above; surefire skips nested classes unless a -Dtest filter selects them.
  static class UsesTheExtension {
    @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

    static final List<Path> folders = new ArrayList<>();
    static final List<RedisProcess> redis = new ArrayList<>();
    static final List<Api> servers = new ArrayList<>();

    @Test
    void startsAServerAndAnother() throws Exception {
      // What an earlier run of this class saw (run by a -Dtest filter that selects it besides the
      // test above, which runs it too) is closed by now: each run checks its own servers.
      folders.clear();
      redis.clear();
      servers.clear();
      folders.add(server.temporaryFolder());
      redis.add(server.redisProcess());
      servers.add(server.admin());
      LineupServer another = server.startAnother();
      servers.add(Api.adminOf(another));
      // Files in folders below it, as a server with a generated token or an embedded Redis
      // would leave.
      Path dataDir = Files.createDirectories(server.temporaryFolder().resolve("server-9/redis"));
      Files.writeString(dataDir.resolve("appendonly.aof"), "x");

      for (Api api : servers) {
        assertThat(api.get("/health").status()).isEqualTo(200);
      }
      assertThat(server.temporaryFolder()).isDirectory();
    }
  }
}
