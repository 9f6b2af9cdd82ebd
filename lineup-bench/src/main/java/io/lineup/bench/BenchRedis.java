package io.lineup.bench;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.resource.ClientResources;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.QueueName;
import io.lineup.redis.RedisBinary;
import io.lineup.redis.RedisProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The Redis under load: a redis-server this bench starts (the default) or the one at {@code
 * LINEUP_REDIS_URL}. Besides the engine's own connections it keeps one plain Lettuce connection for
 * what the bench itself reads: {@code INFO cpu}, {@code INFO memory}, the server clock, and the
 * clean-up of the queues it made.
 */
public final class BenchRedis implements AutoCloseable {
  /** Longest wait for Redis to free the keys of dropped queues before memory is measured. */
  public static final Duration LAZY_FREE_TIMEOUT = Duration.ofSeconds(60);

  /**
   * Lookups of a member no sorted set holds, per script call of {@link #settleSortedSet}: about a
   * tenth of a second of Redis's time, so other clients are not held up for long.
   */
  private static final int SETTLE_LOOKUPS_PER_CALL = 100_000;

  private final RedisProcess process;
  private final String binary;
  private final String uri;
  private final ClientResources resources;
  private final RedisClient client;
  private final StatefulRedisConnection<String, String> admin;

  private BenchRedis(RedisProcess process, String binary, String uri) {
    this.process = process;
    this.binary = binary;
    this.uri = uri;
    // Lettuce's default latency collector costs every command some bookkeeping; the engine turns
    // it off, so the reference calls run without it too.
    this.resources =
        ClientResources.builder().commandLatencyRecorder(CommandLatencyRecorder.disabled()).build();
    this.client = RedisClient.create(resources, RedisURI.create(uri));
    this.admin = client.connect(StringCodec.UTF8);
  }

  /**
   * Connects to {@code url}, or starts a redis-server of its own when it is null: the one {@code
   * LINEUP_REDIS_SERVER} names, else an installed one (on the {@code PATH}), since that is a build
   * users run, else the bundled one. {@code embedded} picks the bundled one whatever is installed.
   *
   * @throws IllegalStateException when the server cannot be started
   * @throws io.lettuce.core.RedisConnectionException when the given Redis cannot be reached
   */
  public static BenchRedis open(String url, boolean embedded) {
    if (url != null) {
      return new BenchRedis(null, "external", url);
    }
    Optional<Path> configured = embedded ? Optional.empty() : RedisBinary.configured();
    Path path;
    String binary;
    if (embedded) {
      path = RedisBinary.bundled();
      binary = "bundled";
    } else if (configured.isPresent()) {
      path = configured.get();
      binary = "LINEUP_REDIS_SERVER";
    } else {
      Optional<Path> installed = RedisBinary.installed();
      path = installed.orElseGet(RedisBinary::bundled);
      binary = installed.isPresent() ? "installed" : "bundled";
    }
    RedisProcess process = RedisProcess.builder().binary(path).build().start();
    try {
      return new BenchRedis(process, binary, process.uri());
    } catch (RuntimeException e) {
      process.close();
      throw e;
    }
  }

  /** The address the engine connects to. */
  public String uri() {
    return uri;
  }

  /**
   * Which redis-server runs: {@code bundled}, {@code installed} (on the PATH), {@code
   * LINEUP_REDIS_SERVER}, or {@code external} (given by URL).
   */
  public String binary() {
    return binary;
  }

  /** The server's memory allocator, e.g. {@code jemalloc-5.3.0} or {@code libc}. */
  public String allocator() {
    return infoField("memory", "mem_allocator");
  }

  /** Whether this bench started the server (and will stop it). */
  public boolean ownProcess() {
    return process != null;
  }

  /** The server's version, e.g. {@code 7.0.15}. */
  public String version() {
    return infoField("server", "redis_version");
  }

  /** CPU time the server has used since it started (user + system, all threads), in µs. */
  public long cpuMicros() {
    String cpu = sync().info("cpu");
    double seconds =
        Double.parseDouble(field(cpu, "used_cpu_sys"))
            + Double.parseDouble(field(cpu, "used_cpu_user"));
    return Math.round(seconds * 1_000_000);
  }

  /** Calls of one command and the time they took, since the server started. */
  public record CommandStat(long calls, long micros) {}

  /** {@code INFO commandstats}: command name → calls and µs, since the server started. */
  public Map<String, CommandStat> commandStats() {
    Map<String, CommandStat> stats = new HashMap<>();
    for (String line : sync().info("commandstats").split("\r?\n")) {
      // cmdstat_evalsha:calls=123,usec=456,usec_per_call=3.71,rejected_calls=0,failed_calls=0
      if (!line.startsWith("cmdstat_")) {
        continue;
      }
      int colon = line.indexOf(':');
      long calls = 0;
      long micros = 0;
      for (String pair : line.substring(colon + 1).split(",")) {
        String[] kv = pair.split("=");
        if (kv[0].equals("calls")) {
          calls = Long.parseLong(kv[1]);
        } else if (kv[0].equals("usec")) {
          micros = Long.parseLong(kv[1]);
        }
      }
      stats.put(line.substring("cmdstat_".length(), colon), new CommandStat(calls, micros));
    }
    return stats;
  }

  /** Bytes the server's allocator holds for data and overhead ({@code used_memory}). */
  public long usedMemory() {
    return Long.parseLong(infoField("memory", "used_memory"));
  }

  /** Clients blocked in a command such as BLPOP right now. */
  public int blockedClients() {
    return Integer.parseInt(infoField("clients", "blocked_clients"));
  }

  /** The server clock, in epoch milliseconds (the clock due times are compared with). */
  public long serverTimeMillis() {
    var time = sync().time();
    return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
  }

  /** A new connection of its own, as the engine's (bytes in and out), for the reference calls. */
  public StatefulRedisConnection<byte[], byte[]> connect() {
    return client.connect(ByteArrayCodec.INSTANCE);
  }

  /** Deletes every key of a queue the bench made (in the background, by UNLINK). */
  public void dropQueue(QueueName queue) {
    String[] keys =
        Arrays.stream(KeySpace.queueKeys(queue))
            .map(key -> new String(key, StandardCharsets.UTF_8))
            .toArray(String[]::new);
    sync().unlink(keys);
    // Records of generated ids live in hashes of 62 arrivals each (3,844 in earlier builds), beside
    // the queue keys.
    unlinkMatching(KeySpace.recordBucketPattern(queue));
    // A fair queue's per-key state beside its meta hash.
    unlinkMatching(KeySpace.fairKeyPattern(queue));
    sync()
        .srem(
            new String(KeySpace.QUEUE_REGISTRY, StandardCharsets.UTF_8),
            KeySpace.registryMember(queue));
  }

  private void unlinkMatching(String pattern) {
    ScanArgs match = ScanArgs.Builder.matches(pattern).limit(1000);
    KeyScanCursor<String> cursor = sync().scan(match);
    while (true) {
      if (!cursor.getKeys().isEmpty()) {
        sync().unlink(cursor.getKeys().toArray(String[]::new));
      }
      if (cursor.isFinished()) {
        break;
      }
      cursor = sync().scan(cursor, match);
    }
  }

  /**
   * Brings a big sorted set's member table to rest: Redis grows a hash table by moving its entries
   * to a table twice the size one bucket per operation on it, so a set that has just grown past a
   * power of two pays for two lookups and a share of the move on every operation, for as many
   * operations as the old table had buckets. A deep line that has waited a while has finished the
   * move; one just filled has not. This sends that many lookups of a member it does not hold
   * ({@code ZSCORE}, which changes nothing): the old table never has more buckets than the set has
   * members, and each lookup moves the move on by at least one bucket.
   *
   * @param key the sorted set
   * @return the lookups sent
   */
  public long settleSortedSet(byte[] key) {
    String name = new String(key, StandardCharsets.UTF_8);
    long members = sync().zcard(name);
    String script =
        "for _ = 1, tonumber(ARGV[1]) do redis.call('ZSCORE', KEYS[1], '') end return 0";
    for (long sent = 0; sent < members; sent += SETTLE_LOOKUPS_PER_CALL) {
      long lookups = Math.min(SETTLE_LOOKUPS_PER_CALL, members - sent);
      sync().eval(script, ScriptOutputType.INTEGER, new String[] {name}, Long.toString(lookups));
    }
    return members;
  }

  /**
   * Waits until the server has freed what earlier UNLINKs handed to its background thread, so a
   * memory reading counts only live data.
   *
   * @throws IllegalStateException when that takes longer than {@link #LAZY_FREE_TIMEOUT}
   */
  public void awaitLazyFree() {
    long deadline = System.nanoTime() + LAZY_FREE_TIMEOUT.toNanos();
    while (Long.parseLong(infoField("memory", "lazyfree_pending_objects")) > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "Redis did not free dropped queues in " + LAZY_FREE_TIMEOUT);
      }
      Pause.millis(10);
    }
  }

  /** Commands Redis has processed since it started (INFO stats total_commands_processed). */
  public long totalCommands() {
    return Long.parseLong(infoField("stats", "total_commands_processed"));
  }

  private RedisCommands<String, String> sync() {
    return admin.sync();
  }

  private String infoField(String section, String name) {
    return field(sync().info(section), name);
  }

  private static String field(String info, String name) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(name + ":")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    throw new IllegalStateException("INFO has no field " + name);
  }

  /** Closes the connections and stops the server when this bench started it. */
  @Override
  public void close() {
    admin.close();
    client.shutdown();
    resources.shutdown();
    if (process != null) {
      process.close();
    }
  }
}
