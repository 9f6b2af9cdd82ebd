package io.lineup.testing;

import io.lineup.redis.RedisProcess;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives a test class its own real {@code redis-server} on a free port (never the shared one on
 * 6379), started before the first test and stopped after the last, when its temporary data folder
 * is deleted too. Tests isolate themselves with {@link #uniqueName(String)}, and may stop, kill or
 * restart the server mid-test.
 *
 * <pre>{@code
 * @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();
 * }</pre>
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback, TestRedis {
  private final RedisProcess.Builder builder;
  private RedisProcess process;

  private RedisServerExtension(RedisProcess.Builder builder) {
    this.builder = builder;
  }

  /** A server without persistence. */
  public static RedisServerExtension withDefaults() {
    return new RedisServerExtension(RedisProcess.builder());
  }

  /**
   * A server with the append-only file on ({@code appendfsync always}), to survive restarts and
   * kills.
   */
  public static RedisServerExtension withAppendOnlyFile() {
    return new RedisServerExtension(
        RedisProcess.builder().appendOnly(true).setting("appendfsync", "always"));
  }

  /**
   * Adds a redis-server setting, e.g. {@code setting("enable-debug-command", "local")}; for use
   * where the extension is declared, before its server starts.
   *
   * @return this extension
   * @throws IllegalStateException once the server has started
   */
  public RedisServerExtension setting(String name, String value) {
    if (process != null) {
      throw new IllegalStateException("Redis settings are given before the server starts");
    }
    builder.setting(name, value);
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    // Kept before it starts, so that a server that fails to start still has its folder deleted.
    process = builder.build();
    process.start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (process != null) {
      process.close();
    }
  }

  /**
   * The running server process.
   *
   * @throws IllegalStateException before the first test class callback started it
   */
  public RedisProcess process() {
    if (process == null) {
      throw new IllegalStateException("The Redis server starts before the test class's first test");
    }
    return process;
  }

  /** {@code redis://127.0.0.1:PORT} of the server. */
  @Override
  public String uri() {
    return process().uri();
  }

  /** The one server. */
  @Override
  public List<RedisProcess> nodes() {
    return List.of(process());
  }

  /** False: one server. */
  @Override
  public boolean isCluster() {
    return false;
  }

  /** 0: the one server serves every slot. */
  @Override
  public int nodeOfSlot(int slot) {
    if (slot < 0 || slot >= CLUSTER_SLOTS) {
      throw new IllegalArgumentException("slot must be 0 to 16383, got " + slot);
    }
    return 0;
  }

  /** A name no other test uses, for queues and namespaces: {@code prefix-<random>}. */
  public static String uniqueName(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }
}
