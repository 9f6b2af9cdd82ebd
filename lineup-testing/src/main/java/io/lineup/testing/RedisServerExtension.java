package io.lineup.testing;

import io.lineup.redis.RedisProcess;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives a test class its own real {@code redis-server} on a free port (never the shared one on
 * 6379), started before the first test and stopped after the last. Tests isolate themselves with
 * {@link #uniqueName(String)}, and may stop, kill or restart the server mid-test.
 *
 * <pre>{@code
 * @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();
 * }</pre>
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {
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

  @Override
  public void beforeAll(ExtensionContext context) {
    process = builder.build().start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (process != null) {
      process.close();
    }
  }

  /** The running server process. */
  public RedisProcess process() {
    return process;
  }

  /** {@code redis://127.0.0.1:PORT} of the server. */
  public String uri() {
    return process.uri();
  }

  /** A name no other test uses, for queues and namespaces: {@code prefix-<random>}. */
  public static String uniqueName(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }
}
