package io.lineup.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} process on 127.0.0.1 that this JVM owns: start, graceful stop, crash
 * (SIGKILL) and restart on the same port and data folder.
 *
 * <p>Used by the tests (a server per test class, or the nodes of a test cluster), by the server's
 * embedded mode and by the benchmark. Not thread-safe: one owner drives its life.
 */
public final class RedisProcess implements AutoCloseable {
  /**
   * Largest value, in bytes, that Redis keeps in a hash's compact listpack form ({@code
   * hash-max-listpack-value}, 64 by default), set on every server this class starts. Lineup keeps
   * waiting jobs' records in hashes of 62, which a listpack holds in about a quarter of a hash
   * table's overhead when every record fits: 128 holds records with payloads up to about 115 bytes
   * (docs/engine.md, data layout).
   */
  public static final int LISTPACK_VALUE_BYTES = 128;

  // Its older name, which Redis 7 still accepts, so servers before 7.0 start too.
  private static final String LISTPACK_VALUE_SETTING = "hash-max-ziplist-value";

  /** How long {@link #start()} waits for the server to answer PING (loading an AOF included). */
  public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);

  private final Path binary;
  private final Path dataDir;
  private final boolean ownsDataDir;
  private final Map<String, String> settings;
  private final boolean sentinel;
  private int port;

  /** Whether this process picks its own port (none was given): then a port taken is tried again. */
  private final boolean picksItsPort;

  /** Picks a free port; a test may give one that picks a taken port first. */
  private final java.util.function.IntSupplier portPicker;

  private Process process;

  /**
   * How many ports a process that picks its own tries when another process took the one it picked
   * between the pick and the bind (machines that run several test JVMs at once).
   */
  static final int PORT_ATTEMPTS = 5;

  /** A cluster node's bus port is its port plus this (Redis's default, used by CLUSTER MEET). */
  private static final int CLUSTER_BUS_OFFSET = 10_000;

  private RedisProcess(Builder builder) {
    this.binary = builder.binary != null ? builder.binary : RedisBinary.locate();
    try {
      this.ownsDataDir = builder.dataDir == null;
      this.dataDir =
          ownsDataDir
              ? Files.createTempDirectory("lineup-redis-")
              : builder.dataDir.toAbsolutePath();
      Files.createDirectories(dataDir);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not create the Redis data folder", e);
    }
    this.settings = new LinkedHashMap<>(builder.settings);
    this.sentinel = builder.sentinel;
    if (sentinel) {
      // A sentinel persists nothing of a server's and holds no data; it rewrites its own
      // configuration file.
      settings.remove("save");
      settings.remove("appendonly");
      settings.remove(LISTPACK_VALUE_SETTING);
    }
    this.port = builder.port;
    this.picksItsPort = builder.port == 0;
    this.portPicker =
        builder.portPicker != null
            ? builder.portPicker
            : () -> freePort("yes".equals(settings.get("cluster-enabled")));
  }

  /**
   * A builder; the defaults are a free port, a temporary data folder, no persistence and hash
   * listpacks of values up to {@link #LISTPACK_VALUE_BYTES}.
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts the process and waits until it answers PING.
   *
   * <p>A process built without a port picks a free one on its first start (with a free bus port too
   * for a cluster node) and, when another process took it between the pick and the bind, picks
   * another, up to {@link #PORT_ATTEMPTS} times: a race for a port, not a slow start, which is
   * never retried.
   *
   * @throws IllegalStateException when it exits or does not answer within {@link
   *     #DEFAULT_START_TIMEOUT}; the message carries the tail of its log
   */
  public synchronized RedisProcess start() {
    if (isRunning()) {
      return this;
    }
    boolean firstStart = port == 0;
    for (int attempt = 1; ; attempt++) {
      if (port == 0) {
        port = portPicker.getAsInt();
      }
      try {
        launch();
        return this;
      } catch (PortTakenException taken) {
        if (!(picksItsPort && firstStart) || attempt >= PORT_ATTEMPTS) {
          throw new IllegalStateException(taken.getMessage());
        }
        // A fresh node on a fresh port: nothing of the attempt that lost its port is kept.
        port = 0;
        deleteQuietly(dataDir.resolve("redis.log"));
        deleteQuietly(dataDir.resolve("redis.stdout"));
        String nodes = settings.get("cluster-config-file");
        if (nodes != null) {
          deleteQuietly(dataDir.resolve(nodes));
        }
      }
    }
  }

  /** The process exited because its port (or bus port) was taken by another. */
  private static final class PortTakenException extends RuntimeException {
    PortTakenException(String message) {
      super(message);
    }
  }

  private void launch() {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    if (sentinel) {
      Path config = dataDir.resolve("sentinel.conf");
      try {
        if (!Files.exists(config)) {
          Files.writeString(config, "");
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Could not write " + config, e);
      }
      command.addAll(List.of(config.toString(), "--sentinel"));
    }
    command.addAll(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1"));
    command.addAll(List.of("--dir", dataDir.toString(), "--logfile", "redis.log"));
    command.addAll(List.of("--daemonize", "no", "--protected-mode", "no"));
    settings.forEach((name, value) -> {
      command.add("--" + name);
      command.add(value);
    });
    try {
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(dataDir.resolve("redis.stdout").toFile())
              .start();
    } catch (IOException e) {
      throw new IllegalStateException("Could not run " + binary, e);
    }
    awaitPong(DEFAULT_START_TIMEOUT);
  }

  /** Stops the server gracefully (SHUTDOWN, which flushes the append-only file when enabled). */
  public synchronized void stop() {
    if (!isRunning()) {
      return;
    }
    // A frozen server would never answer SHUTDOWN.
    signalQuietly("CONT");
    try {
      command("SHUTDOWN");
    } catch (IOException expected) {
      // The server closes the connection as it exits.
    }
    waitForExit();
  }

  /**
   * Kills the server with SIGKILL, as a crash would: nothing is flushed beyond what Redis already
   * did.
   */
  public synchronized void kill() {
    if (process != null) {
      process.destroyForcibly();
      waitForExit();
    }
  }

  /**
   * Stops the process with SIGSTOP, as a network cut or a stalled host would look to its clients
   * and replicas: connections stay open, nothing is answered. {@link #thaw()} resumes it.
   *
   * @throws IllegalStateException when the process is not running or the signal cannot be sent
   */
  public synchronized void freeze() {
    signal("STOP");
  }

  /**
   * Resumes a process stopped by {@link #freeze()} (SIGCONT).
   *
   * @throws IllegalStateException when the process is not running or the signal cannot be sent
   */
  public synchronized void thaw() {
    signal("CONT");
  }

  private void signal(String name) {
    if (!isRunning()) {
      throw new IllegalStateException("redis-server is not running");
    }
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
              .redirectErrorStream(true)
              .start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + name + " failed for pid " + process.pid());
      }
    } catch (IOException e) {
      throw new IllegalStateException("Could not run kill -" + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while sending SIG" + name, e);
    }
  }

  private void signalQuietly(String name) {
    try {
      signal(name);
    } catch (IllegalStateException ignored) {
      // Only a courtesy before a stop; the stop itself ends the process if need be.
    }
  }

  /** Stops (gracefully) and starts again on the same port and data folder. */
  public synchronized void restart() {
    stop();
    start();
  }

  /** Whether the process is alive. */
  public synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** The TCP port on 127.0.0.1; known after the first {@link #start()}. */
  public int port() {
    return port;
  }

  /** A {@code redis://127.0.0.1:PORT} URI for clients. */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /** The folder holding the append-only file, snapshots and {@code redis.log}. */
  public Path dataDir() {
    return dataDir;
  }

  /** Stops the server and deletes the data folder when this object created it. */
  @Override
  public synchronized void close() {
    stop();
    kill();
    if (ownsDataDir) {
      deleteRecursively(dataDir);
    }
  }

  /**
   * Sends one inline command and returns its reply as text: a status or error line as it is ({@code
   * +OK}, {@code -ERR ...}), an integer as {@code :n}, a bulk string's content. For start-up
   * checks, cluster set-up and tests; not a Redis client (arrays are not read).
   *
   * @throws IOException when the server cannot be reached or closes the connection
   */
  public String command(String inline) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      socket.setSoTimeout(5000);
      OutputStream out = socket.getOutputStream();
      out.write((inline + "\r\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = socket.getInputStream();
      String first = readLine(in);
      if (first.startsWith("$") && !first.equals("$-1")) {
        byte[] body = in.readNBytes(Integer.parseInt(first.substring(1)));
        return new String(body, StandardCharsets.UTF_8);
      }
      return first;
    }
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    int c;
    while ((c = in.read()) != -1 && c != '\n') {
      if (c != '\r') {
        line.append((char) c);
      }
    }
    if (c == -1 && line.isEmpty()) {
      throw new IOException("connection closed");
    }
    return line.toString();
  }

  private void awaitPong(Duration timeout) {
    long started = System.nanoTime();
    long deadline = started + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        String log = logTail();
        String message =
            "redis-server exited with code "
                + process.exitValue()
                + " "
                + Duration.ofNanos(System.nanoTime() - started).toMillis()
                + " ms after it was started: "
                + log;
        if (log.contains("Address in use") || log.contains("Address already in use")) {
          throw new PortTakenException(message);
        }
        throw new IllegalStateException(message);
      }
      try {
        if ("+PONG".equals(command("PING"))) {
          return;
        }
      } catch (IOException notYet) {
        // Not listening yet.
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while starting redis-server", e);
      }
    }
    process.destroyForcibly();
    throw new IllegalStateException(
        "redis-server did not answer PING in " + timeout + ": " + logTail());
  }

  private void waitForExit() {
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private String logTail() {
    try {
      List<String> lines = new ArrayList<>();
      for (String file : List.of("redis.stdout", "redis.log")) {
        Path path = dataDir.resolve(file);
        if (Files.exists(path)) {
          lines.addAll(Files.readAllLines(path));
        }
      }
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /**
   * A port free now on 127.0.0.1; for a cluster node, one whose bus port (port + 10,000) is a valid
   * port and free now too.
   */
  private static int freePort(boolean clusterNode) {
    for (int tries = 0; tries < 1000; tries++) {
      int candidate = freePort();
      if (!clusterNode) {
        return candidate;
      }
      int bus = candidate + CLUSTER_BUS_OFFSET;
      if (bus <= 65_535 && isFree(bus)) {
        return candidate;
      }
    }
    throw new IllegalStateException("No free port with a free cluster bus port");
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port", e);
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException ignored) {
      // The next attempt's log starts after it anyway.
    }
  }

  private static boolean isFree(int port) {
    try (ServerSocket socket =
        new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException taken) {
      return false;
    }
  }

  private static void deleteRecursively(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException ignored) {
      // A leftover temporary folder is harmless.
    }
  }

  /**
   * Options for a {@link RedisProcess}; every setting maps to a {@code redis-server --name value}
   * flag.
   */
  public static final class Builder {
    private Path binary;
    private Path dataDir;
    private int port;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private boolean sentinel;
    private java.util.function.IntSupplier portPicker;

    private Builder() {
      settings.put("save", "");
      settings.put("appendonly", "no");
      settings.put(LISTPACK_VALUE_SETTING, Integer.toString(LISTPACK_VALUE_BYTES));
    }

    /** The redis-server executable; default {@link RedisBinary#locate()}. */
    public Builder binary(Path binary) {
      this.binary = binary;
      return this;
    }

    /** The data folder, kept on close; default a temporary folder deleted on close. */
    public Builder dataDir(Path dataDir) {
      this.dataDir = dataDir;
      return this;
    }

    /** The port; 0 (default) picks a free one. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** For tests of the port race: how a process without a port picks one. */
    Builder portPicker(java.util.function.IntSupplier picker) {
      this.portPicker = picker;
      return this;
    }

    /** Turns the append-only file on ({@code appendfsync everysec}) or off. */
    public Builder appendOnly(boolean on) {
      settings.put("appendonly", on ? "yes" : "no");
      return this;
    }

    /**
     * Runs a Redis Sentinel ({@code redis-server sentinel.conf --sentinel}) instead of a server:
     * tell it what to watch with {@link RedisProcess#command} ({@code SENTINEL MONITOR ...}) once
     * it runs. Its configuration file lives in the data folder.
     */
    public Builder sentinel() {
      this.sentinel = true;
      return this;
    }

    /** Any other redis-server setting, e.g. {@code setting("hz", "100")}. */
    public Builder setting(String name, String value) {
      settings.put(name, value);
      return this;
    }

    /** Builds without starting. */
    public RedisProcess build() {
      return new RedisProcess(this);
    }
  }
}
