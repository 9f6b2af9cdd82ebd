package io.lineup.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Lineup server jar run as a child process for the HTTP scenarios: pointed at the bench's Redis
 * ({@code LINEUP_REDIS_URL}), on a free port of 127.0.0.1 ({@code LINEUP_PORT}), with an admin
 * token of the bench's making ({@code LINEUP_ADMIN_TOKEN}), a temporary data folder, and egress
 * allowed to 127.0.0.1 ({@code LINEUP_EGRESS_ALLOW}) for the dispatch target. Ready when it prints
 * {@code Lineup listening on http://…}.
 */
final class ServerProcess implements AutoCloseable {
  /**
   * Environment variable with extra JVM options for the server (space-separated), e.g. a flight
   * recording to profile it under the bench's load.
   */
  static final String JAVA_OPTS_VARIABLE = "LINEUP_BENCH_SERVER_JAVA_OPTS";

  /** Longest wait for the "Lineup listening" line. */
  static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  /** Longest wait for the server to exit after SIGTERM before it is killed. */
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

  private static final Pattern LISTENING = Pattern.compile("Lineup listening on (http://\\S+)");
  private static final int LOG_TAIL_LINES = 40;

  private final Process process;
  private final Path dataDir;
  private final String token;
  private final ArrayDeque<String> tail = new ArrayDeque<>();
  private final CountDownLatch listening = new CountDownLatch(1);
  private volatile URI base;

  private ServerProcess(Process process, Path dataDir, String token) {
    this.process = process;
    this.dataDir = dataDir;
    this.token = token;
  }

  /**
   * Starts the jar with the Java that runs the bench and waits until it listens.
   *
   * @throws IllegalStateException when it exits or does not listen within {@link #START_TIMEOUT};
   *     the message carries the tail of its output
   */
  static ServerProcess start(Path jar, String redisUri) {
    String token = HexFormat.of().formatHex(randomBytes(24));
    Path dataDir;
    Process process;
    try {
      dataDir = Files.createTempDirectory("lineup-bench-server-");
      String java = ProcessHandle.current().info().command().orElse("java");
      List<String> command = new ArrayList<>();
      command.add(java);
      String extra = System.getenv(JAVA_OPTS_VARIABLE);
      if (extra != null && !extra.isBlank()) {
        command.addAll(List.of(extra.trim().split("\\s+")));
      }
      command.addAll(List.of("-jar", jar.toAbsolutePath().toString()));
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      builder.environment().put("LINEUP_REDIS_URL", redisUri);
      builder.environment().put("LINEUP_PORT", Integer.toString(freePort()));
      builder.environment().put("LINEUP_ADMIN_TOKEN", token);
      builder.environment().put("LINEUP_DATA_DIR", dataDir.toString());
      // The dispatch scenario's target (NoOpTarget) listens on 127.0.0.1, which the server's
      // egress policy refuses unless allowed.
      builder.environment().put("LINEUP_EGRESS_ALLOW", "127.0.0.1");
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not start the server jar " + jar, e);
    }
    ServerProcess server = new ServerProcess(process, dataDir, token);
    Thread.ofPlatform().daemon().name("lineup-bench-server-output").start(server::readOutput);
    server.awaitListening();
    return server;
  }

  /** The server's base address, e.g. {@code http://127.0.0.1:41234}. */
  URI base() {
    return base;
  }

  /** CPU time the server process has used so far (all threads), in µs; 0 when unknown. */
  long cpuMicros() {
    return process.toHandle().info().totalCpuDuration().map(d -> d.toNanos() / 1_000).orElse(0L);
  }

  /**
   * CPU time the server's JIT compiler threads have used so far, in µs (their utime and stime in
   * /proc/PID/task/TID/stat, at the 100 ticks a second Linux reports); 0 when unknown (not Linux).
   */
  long compilerCpuMicros() {
    long ticks = 0;
    Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
    try (var threads = Files.list(tasks)) {
      for (Path task : (Iterable<Path>) threads::iterator) {
        ticks += compilerTicks(task);
      }
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    return ticks * 10_000;
  }

  /** The utime + stime of one thread when it is a JIT compiler thread, in clock ticks, else 0. */
  private static long compilerTicks(Path task) {
    try {
      String stat = Files.readString(task.resolve("stat"));
      // "TID (NAME) STATE ...": the name may hold spaces, so the fields start after the last ')'.
      int open = stat.indexOf('(');
      int close = stat.lastIndexOf(')');
      String name = stat.substring(open + 1, close);
      if (!name.startsWith("C1 Compiler") && !name.startsWith("C2 Compiler")) {
        return 0;
      }
      String[] fields = stat.substring(close + 2).split(" ");
      // After the name: state is field 3 of stat, utime 14 and stime 15 (indexes 11 and 12 here).
      return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    } catch (IOException | RuntimeException e) {
      return 0; // The thread ended between listing and reading.
    }
  }

  /** The server process's resident memory (VmRSS of /proc/PID/status), in bytes; 0 when unknown. */
  long rssBytes() {
    try {
      for (String line :
          Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or the process ended.
    }
    return 0;
  }

  /** The admin token, accepted on every route. */
  String token() {
    return token;
  }

  private void readOutput() {
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        synchronized (tail) {
          tail.addLast(line);
          if (tail.size() > LOG_TAIL_LINES) {
            tail.removeFirst();
          }
        }
        Matcher matcher = LISTENING.matcher(line);
        if (base == null && matcher.find()) {
          base = URI.create(matcher.group(1));
          listening.countDown();
        }
      }
    } catch (IOException closed) {
      // The process ended; awaitListening reports it.
    }
  }

  private void awaitListening() {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    try {
      while (!listening.await(100, TimeUnit.MILLISECONDS)) {
        if (!process.isAlive()) {
          close();
          throw new IllegalStateException(
              "The server exited with code "
                  + process.exitValue()
                  + " before listening:\n"
                  + tail());
        }
        if (System.nanoTime() > deadline) {
          close();
          throw new IllegalStateException(
              "The server did not print 'Lineup listening' in " + START_TIMEOUT + ":\n" + tail());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IllegalStateException("Interrupted while the server started", e);
    }
  }

  /** The last lines the server printed. */
  String tail() {
    synchronized (tail) {
      return String.join("\n", tail);
    }
  }

  /** Stops the server (SIGTERM, then SIGKILL after {@link #STOP_TIMEOUT}) and deletes its data. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    try (Stream<Path> paths = Files.walk(dataDir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException ignored) {
      // A leftover temporary folder is harmless.
    }
  }

  private static byte[] randomBytes(int n) {
    byte[] bytes = new byte[n];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
