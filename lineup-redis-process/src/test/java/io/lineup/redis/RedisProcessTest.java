package io.lineup.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
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

  @Test
  void aProcessThatPicksItsPortPicksAnotherWhenAnotherProcessTookTheFirst() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      AtomicInteger picks = new AtomicInteger();
      int free;
      try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        free = probe.getLocalPort();
      }
      int freePort = free;
      try (RedisProcess redis =
          RedisProcess.builder()
              .portPicker(() -> picks.getAndIncrement() == 0 ? taken.getLocalPort() : freePort)
              .build()
              .start()) {
        assertThat(picks).hasValue(2);
        assertThat(redis.port()).isEqualTo(freePort);
        assertThat(redis.command("PING")).isEqualTo("+PONG");
      }
    }
  }

  @Test
  void aProcessGivenATakenPortFailsAtOnceAndSaysWhy() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        RedisProcess redis = RedisProcess.builder().port(taken.getLocalPort()).build()) {
      assertThatThrownBy(redis::start)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("redis-server exited")
          .hasMessageContaining("in use");
    }
  }
}
