package io.lineup.server.metrics;

import io.lineup.archive.Archive;
import io.lineup.archive.ArchiveStats;
import io.lineup.core.CommandLatencyListener;
import io.lineup.core.Lineup;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.QueueName;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The server's Prometheus metrics (Micrometer): HTTP latency by route and status, Redis command
 * latency, per-queue counters and depths, lateness and processing-time histograms, long-polls
 * waiting. docs/operations.md lists every name.
 */
public final class ServerMetrics {
  /** Most distinct Redis command names timed (a guard against unbounded labels). */
  static final int MAX_REDIS_COMMANDS = 64;

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<String, Timer> redisTimers = new ConcurrentHashMap<>();
  private final Map<HttpKey, Timer> httpTimers = new ConcurrentHashMap<>();
  private final Map<QueueName, Timer> lateness = new ConcurrentHashMap<>();
  private final Map<String, Timer> processing = new ConcurrentHashMap<>();
  private final LeaseClock leaseClock = new LeaseClock();
  private final QueueGauges queues = new QueueGauges(registry);
  private final MultiGauge breakerGauge =
      MultiGauge.builder("lineup.dispatch.breakers.open")
          .description("1 when a dispatch endpoint's circuit breaker is open or half open, else 0")
          .register(registry);
  private volatile Supplier<List<EndpointBreaker>> breakers = List::of;
  private final MultiGauge adaptiveGauge =
      MultiGauge.builder("lineup.endpoint.adaptive.limit")
          .description(
              "A dispatch endpoint's adaptive concurrency limit in force, shared by every"
                  + " instance (read from Redis at the scrape)")
          .register(registry);
  private volatile Supplier<List<EndpointAdaptiveLimit>> adaptiveLimits = List::of;
  private final Map<String, AtomicLong> adaptiveMoves = new ConcurrentHashMap<>();

  public ServerMetrics() {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  /**
   * Reports how many long-polls wait right now, as {@code lineup_lease_waiters}.
   *
   * @param waiting read at every scrape; held for the life of the metrics
   */
  public void watchWaiters(IntSupplier waiting) {
    // Micrometer holds a gauge's object weakly by default; the supplier is often a lambda or
    // method reference nobody else holds, which a collection would clear (the gauge then reads
    // NaN).
    Gauge.builder("lineup.lease.waiters", waiting, IntSupplier::getAsInt)
        .description("Long-poll lease calls waiting on this instance")
        .strongReference(true)
        .register(registry);
  }

  /**
   * Reports how many ticket followers (event streams and long polls of waiting-room tickets) this
   * instance holds, over all rooms, as {@code lineup_room_streams}.
   *
   * @param followers read at every scrape; held for the life of the metrics
   */
  public void watchRoomStreams(IntSupplier followers) {
    Gauge.builder("lineup.room.streams", followers, IntSupplier::getAsInt)
        .description("Ticket event streams and long polls open on this instance, all rooms")
        .strongReference(true)
        .register(registry);
  }

  /**
   * Reports the circuit breaker of every dispatch endpoint this instance follows, as {@code
   * lineup_dispatch_breakers_open} labelled {@code namespace} and {@code endpoint}: 1 when open or
   * half open, 0 when closed. Read at every scrape; endpoints that are gone drop out.
   *
   * @param breakers read at every scrape; held for the life of the metrics
   */
  public void watchBreakers(Supplier<List<EndpointBreaker>> breakers) {
    this.breakers = breakers;
  }

  /**
   * Reports the adaptive concurrency of the dispatch endpoints this instance follows: {@code
   * lineup_endpoint_adaptive_limit{namespace, endpoint}}, the limit in force (read from Redis at
   * every scrape, the same on every instance), and {@code
   * lineup_endpoint_adaptive_moves_total{namespace, endpoint, direction}}, the moves (direction
   * {@code up} or {@code down}) this instance's reports made; summed over instances, every move.
   * Labels are bounded by the endpoints with adaptive concurrency.
   *
   * @param limits read at every scrape; held for the life of the metrics
   */
  public void watchAdaptiveLimits(Supplier<List<EndpointAdaptiveLimit>> limits) {
    this.adaptiveLimits = limits;
  }

  /**
   * The archive's meters (docs/operations.md): its lag, rows written, retention deletions, errors
   * and ends dropped by a full outbox. Lag, outbox entries and drops are read from Redis at each
   * scrape (NaN when Redis cannot be read then). Nothing is registered when archiving is off.
   */
  public void watchArchive(Archive archive) {
    if (archive == null) {
      return;
    }
    ArchiveStats stats = archive.stats();
    Gauge.builder("lineup.archive.lag", archive, a -> orNaN(() -> a.lag().toMillis() / 1000.0))
        .description("Age of the oldest ended job not yet archived, over all queues (0: none)")
        .baseUnit("seconds")
        .strongReference(true)
        .register(registry);
    Gauge.builder("lineup.archive.outbox.entries", archive, a -> orNaN(a::outboxLength))
        .description("Ended jobs waiting in the queues' outboxes, cluster-wide")
        .strongReference(true)
        .register(registry);
    FunctionCounter.builder("lineup.archive.outbox.dropped", archive, a -> orNaN(a::outboxDropped))
        .description("Ended jobs not archived because their queue's outbox was full, cluster-wide")
        .register(registry);
    FunctionCounter.builder("lineup.archive.rows.written", stats, ArchiveStats::rowsWritten)
        .description("Rows this instance upserted into the archive")
        .register(registry);
    FunctionCounter.builder(
            "lineup.archive.retention.deleted", stats, ArchiveStats::retentionDeleted)
        .description("Archive rows this instance's retention deleted")
        .register(registry);
    FunctionCounter.builder("lineup.archive.errors", stats, ArchiveStats::errors)
        .description("Failed archive rounds of this instance (database or Redis failures)")
        .register(registry);
  }

  /** Sets what the counter of one endpoint's moves in one direction reads to {@code total}. */
  private void countMoves(EndpointAdaptiveLimit a, String direction, long total) {
    adaptiveMoves
        .computeIfAbsent(
            a.namespace() + "/" + a.endpoint() + "|" + direction,
            k -> {
              AtomicLong moves = new AtomicLong();
              FunctionCounter.builder("lineup.endpoint.adaptive.moves", moves, AtomicLong::get)
                  .description(
                      "Moves of a dispatch endpoint's adaptive concurrency limit made by this"
                          + " instance's reports, by direction")
                  .tags("namespace", a.namespace(), "endpoint", a.endpoint())
                  .tag("direction", direction)
                  .register(registry);
              return moves;
            })
        .set(total);
  }

  private static double orNaN(java.util.function.DoubleSupplier read) {
    try {
      return read.getAsDouble();
    } catch (RuntimeException unreadable) {
      return Double.NaN;
    }
  }

  /** The listener the engine tells every Redis command's latency. */
  public CommandLatencyListener redisLatencyListener() {
    return (command, latency) -> {
      Timer timer = redisTimers.get(command);
      if (timer == null) {
        if (redisTimers.size() >= MAX_REDIS_COMMANDS) {
          return;
        }
        timer =
            redisTimers.computeIfAbsent(
                command,
                name ->
                    Timer.builder("lineup.redis.commands")
                        .description("Latency of Redis commands sent by the engine")
                        .tag("command", name)
                        .serviceLevelObjectives(Buckets.REDIS)
                        .register(registry));
      }
      timer.record(latency);
    };
  }

  /** Times one HTTP request. */
  public void recordHttp(String method, String route, int status, long nanos) {
    httpTimers
        .computeIfAbsent(
            new HttpKey(method, route, status),
            key ->
                Timer.builder("lineup.http.server.requests")
                    .description("HTTP requests by method, route template and status")
                    .tags(
                        "method", key.method(),
                        "route", key.route(),
                        "status", Integer.toString(key.status()))
                    .serviceLevelObjectives(Buckets.HTTP)
                    .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /** The labels of one HTTP timer (routes are templates, so there are few). */
  private record HttpKey(String method, String route, int status) {}

  /** Notes jobs just leased: their lateness, and when processing started. */
  public void recordLeased(List<LeasedJob> jobs) {
    long now = System.nanoTime();
    for (LeasedJob job : jobs) {
      Duration late = Duration.between(job.dueAt(), job.leasedAt());
      latenessTimer(job.queue()).record(late.isNegative() ? Duration.ZERO : late);
      leaseClock.start(job.token(), job.queue(), now);
    }
  }

  /**
   * Notes a job settled through this server.
   *
   * @param outcome {@code acked} or {@code nacked}
   */
  public void recordSettled(String token, String outcome) {
    LeaseClock.Started started = leaseClock.finish(token);
    if (started == null) {
      return;
    }
    String key = started.queue() + "|" + outcome;
    processing
        .computeIfAbsent(
            key,
            k ->
                Timer.builder("lineup.job.processing")
                    .description(
                        "Time from a lease handed out by this instance to its ack or nack here")
                    .tags("queue", started.queue().toString(), "outcome", outcome)
                    .serviceLevelObjectives(Buckets.PROCESSING)
                    .register(registry))
        .record(Duration.ofNanos(System.nanoTime() - started.nanos()));
  }

  /** The Prometheus text exposition, with queue statistics read from Redis first. */
  public String scrape(Lineup lineup) {
    queues.refresh(lineup);
    breakerGauge.register(
        breakers.get().stream()
            .map(b ->
                MultiGauge.Row.of(
                    Tags.of("namespace", b.namespace(), "endpoint", b.endpoint()),
                    b.open() ? 1 : 0))
            .toList(),
        true);
    List<EndpointAdaptiveLimit> adaptive = adaptiveLimits.get();
    adaptiveGauge.register(
        adaptive.stream()
            .filter(a -> a.limit() > 0)
            .map(a ->
                MultiGauge.Row.of(
                    Tags.of("namespace", a.namespace(), "endpoint", a.endpoint()), a.limit()))
            .toList(),
        true);
    for (EndpointAdaptiveLimit a : adaptive) {
      countMoves(a, "up", a.movesUp());
      countMoves(a, "down", a.movesDown());
    }
    leaseClock.prune(System.nanoTime());
    return registry.scrape();
  }

  /**
   * The 99th percentile of the lateness of the queue's jobs leased through this instance since it
   * started, as the upper bound of the histogram bucket it falls in (1 ms to 60 s); empty when this
   * instance leased none of its jobs, or more than 1 % of them were later than 60 s.
   */
  public java.util.Optional<Duration> latenessP99(QueueName queue) {
    Timer timer = lateness.get(queue);
    if (timer == null) {
      return java.util.Optional.empty();
    }
    io.micrometer.core.instrument.distribution.HistogramSnapshot snapshot = timer.takeSnapshot();
    double wanted = snapshot.count() * 0.99;
    if (snapshot.count() == 0) {
      return java.util.Optional.empty();
    }
    for (var bucket : snapshot.histogramCounts()) {
      if (bucket.count() >= wanted) {
        return java.util.Optional.of(Duration.ofNanos((long) bucket.bucket(TimeUnit.NANOSECONDS)));
      }
    }
    return java.util.Optional.empty();
  }

  private Timer latenessTimer(QueueName queue) {
    return lateness.computeIfAbsent(
        queue,
        q ->
            Timer.builder("lineup.job.lateness")
                .description("Time from a job's due time to its lease")
                .tag("queue", q.toString())
                .serviceLevelObjectives(Buckets.LATENESS)
                .register(registry));
  }
}
