package io.lineup.server.metrics;

import io.lineup.core.CommandLatencyListener;
import io.lineup.core.LeasedJob;
import io.lineup.core.Lineup;
import io.lineup.core.QueueName;
import io.micrometer.core.instrument.Gauge;
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
import java.util.function.IntSupplier;

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
   * Reports how many dispatch endpoints have their circuit breaker open or half open, as {@code
   * lineup_dispatch_breakers_open}.
   *
   * @param open read at every scrape; held for the life of the metrics
   */
  public void watchOpenBreakers(java.util.function.LongSupplier open) {
    Gauge.builder("lineup.dispatch.breakers.open", open, java.util.function.LongSupplier::getAsLong)
        .description("Dispatch endpoints whose circuit breaker is open or half open")
        .strongReference(true)
        .register(registry);
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
    leaseClock.prune(System.nanoTime());
    return registry.scrape();
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
