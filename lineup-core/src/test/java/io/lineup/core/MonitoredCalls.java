package io.lineup.core;

import io.lineup.redis.RedisProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The commands one Redis server runs while it is watched, with the client that sent each: a {@code
 * MONITOR} session on a connection of its own. For tests that count what each engine sends (every
 * engine has its own connections), which {@code INFO commandstats} cannot tell apart.
 */
final class MonitoredCalls implements AutoCloseable {
  private final Socket socket;
  private final Queue<String> lines = new ConcurrentLinkedQueue<>();
  private final Thread reader;

  private MonitoredCalls(Socket socket) throws IOException {
    this.socket = socket;
    BufferedReader in =
        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    OutputStream out = socket.getOutputStream();
    out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
    String ok = in.readLine();
    if (!"+OK".equals(ok)) {
      throw new IllegalStateException("MONITOR answered " + ok);
    }
    reader =
        Thread.ofVirtual()
            .start(() -> {
              try {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  lines.add(line);
                }
              } catch (IOException closed) {
                // close() ends the session.
              }
            });
  }

  /** Starts watching {@code node}; close the result to stop. */
  static MonitoredCalls on(RedisProcess node) {
    try {
      return new MonitoredCalls(new Socket("127.0.0.1", node.port()));
    } catch (IOException e) {
      throw new UncheckedIOException("MONITOR of " + node.uri(), e);
    }
  }

  /**
   * How many commands each client sent so far whose printed form holds {@code text} (case ignored),
   * by client address; commands that scripts run are not counted.
   */
  Map<String, Long> byClient(String text) {
    String wanted = text.toLowerCase(Locale.ROOT);
    Map<String, Long> counts = new TreeMap<>();
    for (String line : lines) {
      // +1700000000.123456 [0 127.0.0.1:54321] "FCALL" "name" ...
      int open = line.indexOf('[');
      int close = line.indexOf(']', open + 1);
      if (open < 0 || close < 0 || !line.toLowerCase(Locale.ROOT).contains(wanted)) {
        continue;
      }
      String client = line.substring(line.indexOf(' ', open) + 1, close);
      if (!client.equals("lua")) {
        counts.merge(client, 1L, Long::sum);
      }
    }
    return counts;
  }

  /**
   * How many commands that scripts ran so far (client {@code lua}) hold every one of {@code texts}
   * in their printed form (case ignored): what a script decided to write, seen in Redis.
   */
  long scriptCommands(String... texts) {
    long count = 0;
    for (String line : lines) {
      String lower = line.toLowerCase(Locale.ROOT);
      if (!lower.contains(" lua] ")) {
        continue;
      }
      boolean all = true;
      for (String text : texts) {
        all &= lower.contains(text.toLowerCase(Locale.ROOT));
      }
      if (all) {
        count++;
      }
    }
    return count;
  }

  @Override
  public void close() throws IOException {
    socket.close();
    try {
      reader.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
