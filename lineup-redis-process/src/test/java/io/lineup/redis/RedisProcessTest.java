package io.lineup.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Redis process leaves nothing behind that it created, and keeps what it was given. */
class RedisProcessTest {

  @Test
  void closingAProcessStopsItAndDeletesTheDataFolderItCreated() {
    RedisProcess redis = RedisProcess.builder().build().start();
    Path dataDir = redis.dataDir();
    assertThat(dataDir.resolve("redis.log")).exists();

    redis.close();

    assertThat(redis.isRunning()).isFalse();
    assertThat(dataDir).doesNotExist();
  }

  @Test
  void aProcessThatCouldNotStartStillDeletesItsDataFolderWhenClosed() {
    RedisProcess redis = RedisProcess.builder().setting("no-such-setting", "1").build();
    Path dataDir = redis.dataDir();

    assertThatThrownBy(redis::start).isInstanceOf(IllegalStateException.class);
    redis.close();

    assertThat(dataDir).doesNotExist();
  }

  @Test
  void aDataFolderGivenByTheCallerIsKeptOnClose(@TempDir Path folder) {
    Path dataDir = folder.resolve("redis");
    try (RedisProcess redis = RedisProcess.builder().dataDir(dataDir).build().start()) {
      assertThat(redis.isRunning()).isTrue();
    }
    assertThat(dataDir.resolve("redis.log")).exists();
  }
}
