package io.lineup.core;

import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lineup.testing.RedisServerExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A test's Redis kept inside a long script, so that it answers nobody for a while. */
final class BusyRedis {
  private BusyRedis() {}

  /**
   * Starts a script that spins for {@code busy} on a connection of its own, and returns once Redis
   * has stopped answering others.
   *
   * @return the thread running the script; join it to wait until Redis answers again
   */
  static Thread keepBusy(RedisServerExtension redis, Duration busy) {
    Thread spin = Thread.ofVirtual().start(() -> spin(redis, busy));
    await().atMost(Duration.ofSeconds(5)).until(() -> isBusy(redis));
    return spin;
  }

  private static void spin(RedisServerExtension redis, Duration busy) {
    RedisClient client = RedisClient.create(redis.uri());
    try (var connection = client.connect()) {
      connection
          .sync()
          .eval(
              "local function ms() local t = redis.call('TIME') return t[1] * 1000 + t[2] / 1000"
                  + " end local start = ms() while ms() - start < tonumber(ARGV[1]) do end"
                  + " return 1",
              ScriptOutputType.INTEGER,
              new String[0],
              Long.toString(busy.toMillis()));
    } finally {
      client.shutdown();
    }
  }

  /** Whether Redis leaves a PING unanswered for 200 ms: it is inside a script. */
  private static boolean isBusy(RedisServerExtension redis) {
    try (Socket socket = new Socket("127.0.0.1", redis.process().port())) {
      socket.setSoTimeout(200);
      socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      socket.getInputStream().read();
      return false;
    } catch (SocketTimeoutException e) {
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
