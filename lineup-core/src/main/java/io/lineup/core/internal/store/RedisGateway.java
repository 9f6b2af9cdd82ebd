package io.lineup.core.internal.store;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.metrics.CommandLatencyRecorder;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.lineup.core.model.LineupException;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.RedisOutOfMemoryException;
import io.lineup.core.model.RedisServerInfo;
import io.lineup.core.model.RedisUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The only class that talks to Redis: runs scripts as Redis Functions by FCALL (falling back to
 * EVALSHA, then EVAL, where a function is missing or Redis refuses functions: {@link
 * ScriptFunctions}), keeps the queue registry, and owns the connections.
 *
 * <p>One shared connection carries every non-blocking call, pipelined by Lettuce; consumers that
 * block borrow a dedicated connection from the {@link WakeWaiter}. Commands fail fast while Redis
 * is unreachable ({@link RedisUnavailableException}) and the connection comes back by itself.
 */
public final class RedisGateway implements AutoCloseable {
  private final ClientResources resources;
  private final AbstractRedisClient client;
  private final RedisClient nodeClient;
  private final StatefulConnection<byte[], byte[]> connection;
  private final RedisClusterAsyncCommands<byte[], byte[]> commands;
  private final Duration commandTimeout;
  private final Set<String> registered = ConcurrentHashMap.newKeySet();
  private final WakeWaiter waiter;
  private final ReplyDeadlines deadlines;
  private final ScriptFunctions functions = new ScriptFunctions(this::loadLibrary);
  private final Object durableLock = new Object();

  /** Shortest time between two topology refreshes a failure triggers (Redis Cluster). */
  static final Duration TOPOLOGY_REFRESH_SPACING = Duration.ofSeconds(1);

  /** Time between two topology refreshes without any trigger (Redis Cluster). */
  static final Duration TOPOLOGY_REFRESH_PERIOD = Duration.ofSeconds(15);

  private volatile DurableLink durable;

  /**
   * Connects to one server, a Sentinel group, or (a comma list of nodes) a Redis Cluster.
   *
   * @param latencyListener told each command's name and latency, or null for none
   * @throws RedisUnavailableException when Redis cannot be reached
   * @throws io.lineup.core.model.InvalidArgumentException when the address is not a Redis URI
   */
  public RedisGateway(
      String uri,
      Duration commandTimeout,
      int maxWaitingConnections,
      BiConsumer<String, Duration> latencyListener) {
    this.commandTimeout = commandTimeout;
    this.deadlines = new ReplyDeadlines(commandTimeout);
    RedisEndpoints endpoints = RedisEndpoints.parse(uri);
    endpoints.uris().forEach(u -> u.setTimeout(commandTimeout));
    this.resources =
        ClientResources.builder()
            .commandLatencyRecorder(latencyRecorder(latencyListener))
            .reconnectDelay(
                Delay.exponential(
                    Duration.ofMillis(10), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
            .build();
    SocketOptions socket =
        SocketOptions.builder().connectTimeout(commandTimeout).keepAlive(true).build();
    try {
      if (endpoints.cluster()) {
        RedisClusterClient clusterClient = RedisClusterClient.create(resources, endpoints.uris());
        clusterClient.setOptions(
            ClusterClientOptions.builder(clientOptions(socket))
                .topologyRefreshOptions(
                    ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        // After a master fails, the first refresh (on reconnect attempts) comes
                        // before the replica has taken over; the next one must not wait Lettuce's
                        // default 30 s. The periodic refresh catches changes no command noticed.
                        .adaptiveRefreshTriggersTimeout(TOPOLOGY_REFRESH_SPACING)
                        .enablePeriodicRefresh(TOPOLOGY_REFRESH_PERIOD)
                        .build())
                .build());
        this.client = clusterClient;
        this.nodeClient = RedisClient.create(resources);
        nodeClient.setOptions(clientOptions(socket));
        StatefulRedisClusterConnection<byte[], byte[]> cluster =
            clusterClient.connect(ByteArrayCodec.INSTANCE);
        this.connection = cluster;
        this.commands = cluster.async();
        this.waiter =
            new WakeWaiter(
                BlockingLinks.cluster(clusterClient, cluster, nodeClient, endpoints.uris().get(0)),
                commandTimeout,
                maxWaitingConnections);
      } else {
        RedisClient single = RedisClient.create(resources, endpoints.uris().get(0));
        single.setOptions(clientOptions(socket));
        this.client = single;
        this.nodeClient = null;
        StatefulRedisConnection<byte[], byte[]> server = single.connect(ByteArrayCodec.INSTANCE);
        this.connection = server;
        this.commands = server.async();
        this.waiter =
            new WakeWaiter(
                BlockingLinks.standalone(single, server), commandTimeout, maxWaitingConnections);
      }
    } catch (RedisException e) {
      resources.shutdown();
      throw new RedisUnavailableException("Cannot connect to Redis at " + describe(endpoints), e);
    }
  }

  /**
   * Commands get no expiry timer of Lettuce's: each would cost a scheduled task per command, and
   * the engine bounds every wait for a reply itself ({@link #await}).
   */
  private static final TimeoutOptions NO_COMMAND_TIMERS =
      TimeoutOptions.builder().timeoutCommands(false).build();

  /**
   * A command in flight when the connection drops is failed at once instead of being sent again
   * after the reconnect: a replayed publish could create a second job, a replayed lease could hand
   * out jobs nobody receives. The caller sees {@link RedisUnavailableException} and decides.
   */
  private static final Predicate<RedisCommand<?, ?, ?>> FAIL_INSTEAD_OF_REPLAY =
      command -> {
        command.completeExceptionally(
            new RedisException("Connection to Redis lost; the command was not retried"));
        return true;
      };

  private static ClientOptions clientOptions(SocketOptions socket) {
    return ClientOptions.builder()
        .replayFilter(FAIL_INSTEAD_OF_REPLAY)
        .timeoutOptions(NO_COMMAND_TIMERS)
        .autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .socketOptions(socket)
        .build();
  }

  private static String describe(RedisEndpoints endpoints) {
    return endpoints.uris().stream().map(u -> u.getHost() + ":" + u.getPort()).toList().toString();
  }

  /** Whether the engine talks to a Redis Cluster. */
  public boolean isCluster() {
    return nodeClient != null;
  }

  private static CommandLatencyRecorder latencyRecorder(BiConsumer<String, Duration> listener) {
    if (listener == null) {
      // Also spares every command the default latency collector's bookkeeping.
      return CommandLatencyRecorder.disabled();
    }
    return (local, remote, command, firstResponseNanos, completionNanos) ->
        listener.accept(command.toString(), Duration.ofNanos(completionNanos));
  }

  /**
   * Round trip to Redis.
   *
   * @throws RedisUnavailableException when Redis does not answer
   */
  public Duration ping() {
    long start = System.nanoTime();
    await(commands.ping());
    return Duration.ofNanos(System.nanoTime() - start);
  }

  /**
   * The server's version, mode and the settings that decide whether jobs can be lost.
   *
   * @throws RedisUnavailableException when Redis does not answer
   */
  public RedisServerInfo info() {
    String server = await(commands.info("server"));
    String persistence = await(commands.info("persistence"));
    String policy = null;
    Boolean snapshots = null;
    Integer listpackValue = null;
    try {
      policy = configValue("maxmemory-policy");
      String save = configValue("save");
      snapshots = save != null && !save.isBlank();
      listpackValue = listpackValueBytes();
    } catch (LineupException configRefused) {
      // Managed Redis services often forbid CONFIG; the checks that need it are skipped.
    }
    return new RedisServerInfo(
        infoField(server, "redis_version"),
        infoField(server, "redis_mode"),
        policy,
        "1".equals(infoField(persistence, "aof_enabled")),
        snapshots,
        listpackValue);
  }

  /**
   * {@code hash-max-listpack-value}, asked by its older name, which Redis 7 still answers to and
   * Redis 6 knows alone; null when the server has neither.
   */
  private Integer listpackValueBytes() {
    var values = await(commands.configGet("hash-max-ziplist-value"));
    if (values == null || values.isEmpty()) {
      return null;
    }
    try {
      return Integer.valueOf(values.values().iterator().next().trim());
    } catch (NumberFormatException unreadable) {
      return null;
    }
  }

  private String configValue(String name) {
    var values = await(commands.configGet(name));
    return values == null ? null : values.get(name);
  }

  private static String infoField(String info, String name) {
    for (String line : info.split("\r?\n")) {
      if (line.startsWith(name + ":")) {
        return line.substring(name.length() + 1).trim();
      }
    }
    return null;
  }

  /** The asynchronous commands of the shared connection (for the few plain commands). */
  RedisClusterAsyncCommands<byte[], byte[]> commands() {
    return commands;
  }

  /** The waiter for blocking lease waits. */
  WakeWaiter waiter() {
    return waiter;
  }

  /**
   * Runs a script and waits for its reply.
   *
   * @throws RedisUnavailableException when Redis is unreachable or slower than the command timeout
   * @throws LineupException when the script fails
   */
  public Object run(LuaScript script, byte[][] keys, byte[][] args) {
    if (functions.enabled()) {
      try {
        return await(commands.fcall(script.functionName(), ScriptOutputType.OBJECT, keys, args));
      } catch (LineupException e) {
        if (!functions.fallsBack(e.getCause(), script)) {
          throw e;
        }
      }
    }
    try {
      return await(commands.evalsha(script.sha1(), ScriptOutputType.OBJECT, keys, args));
    } catch (LineupException e) {
      if (!(e.getCause() instanceof RedisNoScriptException)) {
        throw e;
      }
      // The server's script cache was flushed (restart, SCRIPT FLUSH): send the text once.
      return await(commands.eval(script.source(), ScriptOutputType.OBJECT, keys, args));
    }
  }

  /**
   * Runs a script without blocking the caller. The future completes with the reply, or fails with
   * the exception {@link #run} would throw (as the cause of a {@link
   * java.util.concurrent.CompletionException}).
   */
  public CompletableFuture<Object> runAsync(LuaScript script, byte[][] keys, byte[][] args) {
    return runAsync(commands, script, keys, args);
  }

  /**
   * {@link #runAsync} on the connection of durable publishes, which {@link #awaitReplicas} then
   * waits on. That connection is opened by the first call.
   *
   * @throws RedisUnavailableException when the connection cannot be opened
   */
  public CompletableFuture<Object> runDurableAsync(LuaScript script, byte[][] keys, byte[][] args) {
    return runAsync(durableLink().commands(), script, keys, args);
  }

  /**
   * Waits until {@code replicas} replicas of the server holding {@code key} have every write sent
   * by {@link #runDurableAsync} so far, at most {@code timeout} (Redis {@code WAIT}); on Redis 7.2+
   * with the append-only file on, also until that server wrote them to disk ({@code WAITAOF}).
   * Fails like {@link #runAsync}.
   */
  public CompletableFuture<ReplicaAcknowledgement> awaitReplicas(
      byte[] key, int replicas, Duration timeout) {
    return translated(
        durableLink()
            .awaitReplicas(key, replicas, timeout)
            .thenApply(ack -> new ReplicaAcknowledgement(ack.replicas(), ack.onDisk())));
  }

  /**
   * What Redis confirmed after a durable publish.
   *
   * @param replicas replicas that acknowledged the writes
   * @param onDisk whether the server wrote them to its disk; true when that was not checked (Redis
   *     before 7.2, or no append-only file)
   */
  public record ReplicaAcknowledgement(long replicas, boolean onDisk) {}

  private DurableLink durableLink() {
    DurableLink link = durable;
    if (link != null) {
      return link;
    }
    synchronized (durableLock) {
      if (durable == null) {
        boolean waitForDisk = hasWaitAof(info());
        try {
          durable =
              client instanceof RedisClusterClient cluster
                  ? DurableLink.cluster(cluster, waitForDisk)
                  : DurableLink.standalone((RedisClient) client, waitForDisk);
        } catch (RedisException e) {
          throw new RedisUnavailableException(
              "Cannot open the connection for durable publishes", e);
        }
      }
      return durable;
    }
  }

  /** WAITAOF came with Redis 7.2, and waits for a local disk write only with the AOF on. */
  static boolean hasWaitAof(RedisServerInfo info) {
    if (!info.appendOnly() || info.version() == null) {
      return false;
    }
    String[] parts = info.version().split("\\.");
    try {
      int major = Integer.parseInt(parts[0]);
      int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
      return major > 7 || (major == 7 && minor >= 2);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * {@link #await} allowing {@code extra} beyond the command timeout, for a reply Redis holds back
   * on purpose (a {@code WAIT}).
   *
   * @throws RedisUnavailableException when no answer came within both
   */
  public <T> T awaitLonger(CompletableFuture<T> future, Duration extra) {
    try {
      return future.get(commandTimeout.plus(extra).toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisUnavailableException("Interrupted while waiting for Redis", e);
    } catch (TimeoutException e) {
      throw unanswered(e);
    } catch (ExecutionException e) {
      throw failure(e);
    }
  }

  private CompletableFuture<Object> runAsync(
      RedisClusterAsyncCommands<byte[], byte[]> commands,
      LuaScript script,
      byte[][] keys,
      byte[][] args) {
    if (!functions.enabled()) {
      return translated(evaluate(commands, script, keys, args));
    }
    return translated(
        commands
            .<Object>fcall(script.functionName(), ScriptOutputType.OBJECT, keys, args)
            .toCompletableFuture()
            .exceptionallyCompose(error -> {
              if (functions.fallsBack(unwrap(error), script)) {
                return evaluate(commands, script, keys, args);
              }
              return CompletableFuture.failedFuture(error);
            }));
  }

  /** The script way: EVALSHA, and EVAL when the server's script cache lost the script. */
  private static CompletableFuture<Object> evaluate(
      RedisClusterAsyncCommands<byte[], byte[]> commands,
      LuaScript script,
      byte[][] keys,
      byte[][] args) {
    return commands
        .<Object>evalsha(script.sha1(), ScriptOutputType.OBJECT, keys, args)
        .toCompletableFuture()
        .exceptionallyCompose(error -> {
          if (unwrap(error) instanceof RedisNoScriptException) {
            return commands
                .<Object>eval(script.source(), ScriptOutputType.OBJECT, keys, args)
                .toCompletableFuture();
          }
          return CompletableFuture.failedFuture(error);
        });
  }

  /**
   * Loads a script's library ({@code FUNCTION LOAD REPLACE}) on the server, or on every master of a
   * Redis Cluster; completes with null, or with what failed, after the command timeout at the
   * latest.
   */
  private CompletionStage<Throwable> loadLibrary(String library) {
    CompletionStage<?> load =
        connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster
            ? cluster.async().masters().commands().functionLoad(library, true)
            : commands.functionLoad(library, true);
    return load.toCompletableFuture()
        .orTimeout(commandTimeout.toMillis(), TimeUnit.MILLISECONDS)
        .handle((loaded, error) -> error == null ? null : unwrap(error));
  }

  /**
   * The same future, failing with the engine's exception ({@link #translate}) as the cause of a
   * {@link java.util.concurrent.CompletionException} where the stage failed with Lettuce's.
   */
  public static <T> CompletableFuture<T> translated(CompletionStage<T> stage) {
    return stage
        .toCompletableFuture()
        .exceptionally(error -> {
          throw new java.util.concurrent.CompletionException(translate(error));
        });
  }

  /** Records a queue in the registry once per process, so {@link #queues()} lists it. */
  public void register(QueueName queue) {
    String member = KeySpace.registryMember(queue);
    if (!registered.contains(member)) {
      await(commands.sadd(KeySpace.QUEUE_REGISTRY, member.getBytes(StandardCharsets.UTF_8)));
      registered.add(member);
    }
  }

  /**
   * {@link #register} without waiting: the first time this engine meets the queue, the registry's
   * {@code SADD} is sent and the queue counts as known once it is answered (until then every call
   * sends it again, which changes nothing). For the paths that must not block, whose next command
   * (a publish) follows it on the same connection.
   */
  public void registerWithoutWaiting(QueueName queue) {
    String member = KeySpace.registryMember(queue);
    if (!registered.contains(member)) {
      commands
          .sadd(KeySpace.QUEUE_REGISTRY, member.getBytes(StandardCharsets.UTF_8))
          .thenRun(() -> registered.add(member));
    }
  }

  /**
   * {@code reply} bounded in time: the returned future fails with {@link RedisUnavailableException}
   * (as the cause of a {@link java.util.concurrent.CompletionException}) when no answer came within
   * the command timeout plus {@code extra}, and otherwise completes as {@code reply} does. Without
   * {@code extra} no timer is made: the reply joins the replies the engine's one deadline thread
   * watches.
   *
   * @param extra how much longer than the command timeout Redis may take on purpose (a {@code
   *     WAIT}); zero for none
   */
  public <T> CompletableFuture<T> within(CompletableFuture<T> reply, Duration extra) {
    if (reply.isDone()) {
      return reply;
    }
    CompletableFuture<T> bounded;
    if (extra.isZero()) {
      deadlines.watch(reply);
      bounded = reply;
    } else {
      bounded = reply.orTimeout(commandTimeout.plus(extra).toMillis(), TimeUnit.MILLISECONDS);
    }
    return bounded.handle((value, error) -> {
      if (error == null) {
        return value;
      }
      Throwable cause = unwrap(error);
      if (cause instanceof ReplyDeadlines.Overdue || cause instanceof TimeoutException) {
        throw new CompletionException(unanswered(new TimeoutException(cause.getMessage())));
      }
      throw error instanceof CompletionException completion
          ? completion
          : new CompletionException(error);
    });
  }

  /** Whether a queue is in the registry (one SISMEMBER). */
  public boolean isRegistered(QueueName queue) {
    return Boolean.TRUE.equals(
        await(
            commands.sismember(
                KeySpace.QUEUE_REGISTRY,
                KeySpace.registryMember(queue).getBytes(StandardCharsets.UTF_8))));
  }

  /** Every registered queue, as {@code namespace/name}. */
  public List<String> queues() {
    return await(commands.smembers(KeySpace.QUEUE_REGISTRY)).stream()
        .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
        .sorted()
        .toList();
  }

  /** Open subscriptions ({@link #subscribe}), closed with the gateway at the latest. */
  private final List<StatefulConnection<byte[], byte[]>> subscriptions =
      new CopyOnWriteArrayList<>();

  /**
   * Subscribes to a pub/sub channel on a connection of its own, which Lettuce reconnects and
   * subscribes again after an outage. On a cluster it subscribes on one node: Redis Cluster passes
   * every message published on any node to all of them. {@code onMessage} runs on the client's
   * event loop, so it must be quick and must not block.
   *
   * @return closes the subscription
   * @throws RedisUnavailableException when Redis cannot be reached
   */
  public AutoCloseable subscribe(byte[] channel, Consumer<byte[]> onMessage) {
    RedisPubSubAdapter<byte[], byte[]> listener =
        new RedisPubSubAdapter<>() {
          @Override
          public void message(byte[] from, byte[] message) {
            onMessage.accept(message);
          }
        };
    StatefulConnection<byte[], byte[]> subscription;
    try {
      if (client instanceof RedisClusterClient cluster) {
        StatefulRedisClusterPubSubConnection<byte[], byte[]> pubSub =
            cluster.connectPubSub(ByteArrayCodec.INSTANCE);
        subscription = pubSub;
        pubSub.addListener(listener);
        await(pubSub.async().subscribe(channel));
      } else {
        StatefulRedisPubSubConnection<byte[], byte[]> pubSub =
            ((RedisClient) client).connectPubSub(ByteArrayCodec.INSTANCE);
        subscription = pubSub;
        pubSub.addListener(listener);
        await(pubSub.async().subscribe(channel));
      }
    } catch (RedisException e) {
      throw translate(e);
    }
    subscriptions.add(subscription);
    return () -> {
      subscriptions.remove(subscription);
      subscription.close();
    };
  }

  /** Publishes a pub/sub message without waiting for it; a failure is ignored. */
  public void publishWithoutWaiting(byte[] channel, byte[] message) {
    commands.publish(channel, message).exceptionally(error -> 0L);
  }

  /** Whether the shared connection is open right now. */
  public boolean isConnected() {
    return connection.isOpen();
  }

  /**
   * Waits for a Redis reply within the command timeout.
   *
   * <p>A {@link CompletableFuture} (Lettuce's replies and the engine's combined calls all are) is
   * waited for without a timer of its own: {@link ReplyDeadlines} fails it when it is overdue.
   * Other futures wait with a timeout.
   *
   * @throws RedisUnavailableException when Redis is unreachable or too slow
   * @throws LineupException when Redis answers with an error
   */
  public <T> T await(Future<T> future) {
    boolean watched = future instanceof CompletableFuture<T>;
    if (watched && !future.isDone()) {
      deadlines.watch((CompletableFuture<T>) future);
    }
    try {
      return watched ? future.get() : future.get(commandTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      // The command is already on its way and may change state (a lease, an ack): wait for its
      // answer so the caller learns what happened, then keep the interrupt for the caller.
      try {
        return awaitUninterruptibly(future);
      } finally {
        Thread.currentThread().interrupt();
      }
    } catch (TimeoutException e) {
      future.cancel(true);
      throw unanswered(e);
    } catch (ExecutionException e) {
      throw failure(e);
    }
  }

  private RuntimeException failure(ExecutionException e) {
    if (e.getCause() instanceof ReplyDeadlines.Overdue) {
      return unanswered(e);
    }
    return translate(e.getCause());
  }

  private RedisUnavailableException unanswered(Exception cause) {
    return new RedisUnavailableException("Redis did not answer within " + commandTimeout, cause);
  }

  private <T> T awaitUninterruptibly(Future<T> future) {
    long deadline = System.nanoTime() + commandTimeout.toNanos();
    while (true) {
      try {
        return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException again) {
        // Keep waiting; the flag is restored by the caller.
      } catch (TimeoutException e) {
        future.cancel(true);
        throw unanswered(e);
      } catch (ExecutionException e) {
        throw failure(e);
      }
    }
  }

  /** Maps a Lettuce failure to the engine's exceptions. */
  public static RuntimeException translate(Throwable error) {
    Throwable cause = unwrap(error);
    if (cause instanceof LineupException lineup) {
      return lineup;
    }
    if (cause instanceof RedisCommandExecutionException execution) {
      String message = String.valueOf(execution.getMessage());
      // Plain commands answer "OOM ..."; a script's first write is refused with the same text
      // wrapped in the script error.
      if (message.startsWith("OOM") || message.contains("OOM command not allowed")) {
        return new RedisOutOfMemoryException(
            "Redis refused to store more data (maxmemory reached)", execution);
      }
      if (message.startsWith("LOADING")
          || message.startsWith("BUSY")
          || message.startsWith("MASTERDOWN")) {
        return new RedisUnavailableException("Redis is not ready: " + message, execution);
      }
      return new LineupException("Redis refused a command: " + message, execution);
    }
    if (cause instanceof RedisException
        || cause instanceof java.io.IOException
        || cause instanceof java.util.concurrent.CancellationException) {
      return new RedisUnavailableException("Redis is unavailable: " + cause.getMessage(), cause);
    }
    return new LineupException("Unexpected failure talking to Redis: " + cause, cause);
  }

  private static Throwable unwrap(Throwable error) {
    Throwable current = error;
    while ((current instanceof ExecutionException
            || current instanceof java.util.concurrent.CompletionException)
        && current.getCause() != null) {
      current = current.getCause();
    }
    return current;
  }

  @Override
  public void close() {
    for (StatefulConnection<byte[], byte[]> subscription : subscriptions) {
      subscription.close();
    }
    waiter.close();
    if (durable != null) {
      durable.close();
    }
    connection.close();
    // After the connection: its close fails the replies still pending with a clearer cause.
    deadlines.close();
    if (nodeClient != null) {
      nodeClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    resources.shutdown(0, 2, TimeUnit.SECONDS);
  }
}
