package io.lineup.server;

import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The server's {@link Main} run as a child process with the tests' own Java and classpath, for what
 * only a process shows: its exit code and what it prints.
 */
final class MainProcess implements AutoCloseable {
  /**
   * How long a test waits for a server process to listen: a JVM that starts on a busy two-core
   * machine beside the test run (and, on a cluster, learns its topology) took more than a minute
   * there (issue 49), against a few seconds at rest. A longer bound, not a retry: a start that
   * fails says how long it was waited for and what the process printed.
   */
  static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  private static final Pattern LISTENING = Pattern.compile("Lineup listening on (http://\\S+)");

  private final Process process;
  private final List<String> lines = new ArrayList<>();
  private final Thread reader;

  private MainProcess(Process process) {
    this.process = process;
    this.reader = Thread.ofPlatform().daemon().name("main-process-output").start(this::read);
  }

  /**
   * Starts a server on this Redis with the tests' admin token, on a free port of 127.0.0.1, its
   * data in {@code dataDir}, egress allowed to loopback (the dispatch tests' targets are on
   * 127.0.0.1).
   */
  static MainProcess serverOn(String redisUri, Path dataDir) {
    return start(
        Map.of(
            "LINEUP_REDIS_URL",
            redisUri,
            "LINEUP_ADMIN_TOKEN",
            LineupServerExtension.ADMIN_TOKEN,
            "LINEUP_PORT",
            "0",
            "LINEUP_HOST",
            "127.0.0.1",
            "LINEUP_DATA_DIR",
            dataDir.toString(),
            "LINEUP_EGRESS_ALLOW",
            LineupServerExtension.TEST_EGRESS_ALLOW));
  }

  /**
   * Starts Main with these environment variables (the test's own {@code LINEUP_*} ones removed) and
   * flags; standard error is merged into the output.
   */
  static MainProcess start(Map<String, String> environment, String... flags) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (Runtime.version().feature() >= 23) {
      // Netty's use of sun.misc.Unsafe prints warnings otherwise, which are not the server's.
      command.add("--sun-misc-unsafe-memory-access=allow");
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(List.of(flags));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().keySet().removeIf(name -> name.startsWith("LINEUP_"));
    builder.environment().putAll(environment);
    try {
      return new MainProcess(builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Waits for the start-up line and returns the address it names.
   *
   * @throws AssertionError when the process exits or does not listen in time, with how long it
   *     waited, whether the process still runs, and its output
   */
  String awaitListening(Duration timeout) {
    long start = System.nanoTime();
    try {
      await()
          .atMost(timeout)
          .pollInterval(Duration.ofMillis(20))
          .until(() -> listeningAt() != null || !process.isAlive());
    } catch (ConditionTimeoutException notYet) {
      // Reported below with the output.
    }
    String url = listeningAt();
    if (url == null) {
      String state =
          process.isAlive()
              ? "still running, not listening"
              : "exited with code " + process.exitValue();
      throw new AssertionError(
          "The server did not start: waited %d ms of %d ms, %s; its output:%n%s"
              .formatted(
                  Duration.ofNanos(System.nanoTime() - start).toMillis(),
                  timeout.toMillis(),
                  state,
                  String.join("\n", lines())));
    }
    return url;
  }

  private String listeningAt() {
    for (String line : lines()) {
      Matcher matcher = LISTENING.matcher(line);
      if (matcher.find()) {
        return matcher.group(1);
      }
    }
    return null;
  }

  /** Kills the process at once (SIGKILL, as {@code kill -9}): no shutdown of any kind. */
  void kill() {
    process.toHandle().destroyForcibly();
  }

  /** Sends SIGTERM (a normal stop request, as from a supervisor). */
  void terminate() {
    // Through the handle: Process.destroy() would also close the pipe its output is read from.
    process.toHandle().destroy();
  }

  /**
   * Waits for the process to end and for its output to be read.
   *
   * @return its exit code
   * @throws AssertionError when it does not end in time
   */
  int awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(
            "The server did not exit in "
                + timeout
                + "; its output:\n"
                + String.join("\n", lines()));
      }
      reader.join(timeout.toMillis());
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Every line printed so far. */
  List<String> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }

  private void read() {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        synchronized (lines) {
          lines.add(line);
        }
      }
    } catch (IOException ended) {
      // The process is gone; what was read is its output.
    }
  }
}
