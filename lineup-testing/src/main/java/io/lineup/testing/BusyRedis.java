package io.lineup.testing;

import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A test's Redis kept inside a long script, so that it answers nobody for a while: how a test shows
 * what Lineup does while Redis stalls (timeouts, 503s, a shutdown waiting for an answer).
 *
 * <p>It speaks RESP over a plain socket, so it needs no Redis client library.
 */
public final class BusyRedis {
  /** Spins until {@code ARGV[1]} ms have passed by Redis's own clock, then returns 1. */
  private static final String SPIN =
      "local function ms() local t = redis.call('TIME') return t[1] * 1000 + t[2] / 1000 end"
          + " local start = ms() while ms() - start < tonumber(ARGV[1]) do end return 1";

  /** How long a PING may go unanswered before Redis counts as busy. */
  private static final int PING_PATIENCE_MS = 200;

  /** How long to wait for Redis to enter the script. */
  private static final long ENTER_TIMEOUT_NANOS = Duration.ofSeconds(5).toNanos();

  private BusyRedis() {}

  /**
   * Starts a script that spins for {@code busy} on a connection of its own, and returns once Redis
   * has stopped answering others.
   *
   * @param redis the server to keep busy
   * @param busy how long the script runs (ms precision); keep it under the client's timeouts the
   *     test does not mean to trip
   * @return the thread running the script; join it to wait until Redis answers again
   * @throws IllegalStateException when Redis still answers 5 s after the script was sent
   */
  public static Thread keepBusy(RedisProcess redis, Duration busy) {
    Thread spin = Thread.ofVirtual().name("busy-redis").start(() -> spin(redis.port(), busy));
    long deadline = System.nanoTime() + ENTER_TIMEOUT_NANOS;
    // Each probe waits up to PING_PATIENCE_MS for an answer, so this loop paces itself.
    while (!isBusy(redis.port())) {
      if (System.nanoTime() > deadline || !spin.isAlive()) {
        throw new IllegalStateException("Redis on port " + redis.port() + " did not become busy");
      }
    }
    return spin;
  }

  private static void spin(int port, Duration busy) {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      OutputStream out = socket.getOutputStream();
      out.write(command("EVAL", SPIN, "0", Long.toString(busy.toMillis())));
      out.flush();
      // The reply (":1\r\n") comes once the script ends.
      InputStream in = socket.getInputStream();
      int b;
      while ((b = in.read()) != -1 && b != '\n') {
        // Read up to the end of the reply's line.
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whether Redis leaves a PING unanswered for {@link #PING_PATIENCE_MS}: it is inside a script.
   */
  private static boolean isBusy(int port) {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(PING_PATIENCE_MS);
      socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      socket.getInputStream().read();
      return false;
    } catch (SocketTimeoutException e) {
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A command as a RESP array of bulk strings. */
  private static byte[] command(String... parts) {
    StringBuilder resp = new StringBuilder().append('*').append(parts.length).append("\r\n");
    for (String part : parts) {
      byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
      resp.append('$').append(bytes.length).append("\r\n").append(part).append("\r\n");
    }
    return resp.toString().getBytes(StandardCharsets.UTF_8);
  }
}
