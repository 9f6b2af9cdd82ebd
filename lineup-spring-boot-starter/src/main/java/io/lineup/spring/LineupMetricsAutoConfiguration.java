package io.lineup.spring;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer meters bound to the application's {@code MeterRegistry}, when Micrometer is on the
 * class path: per handler queue {@value #PROCESSED}, {@value #FAILED} and {@value #IN_FLIGHT} (tag
 * {@code queue}), and the embedded engine's Redis command latencies as the timer {@value
 * #REDIS_COMMANDS} (tag {@code command}). Nothing is bound when the context has no registry.
 */
@AutoConfiguration(before = LineupAutoConfiguration.class)
@ConditionalOnClass(MeterRegistry.class)
public class LineupMetricsAutoConfiguration {
  /** Jobs a handler returned from, since start (counter). */
  public static final String PROCESSED = "lineup.handler.processed";

  /** Jobs a handler threw on, since start (counter). */
  public static final String FAILED = "lineup.handler.failed";

  /** Jobs being handled now (gauge). */
  public static final String IN_FLIGHT = "lineup.handler.in.flight";

  /** Latency of each Redis command of the embedded engine (timer). */
  public static final String REDIS_COMMANDS = "lineup.redis.commands";

  @Bean
  LineupWorkerListener lineupWorkerMeters(ObjectProvider<MeterRegistry> registries) {
    return worker -> {
      MeterRegistry registry = registries.getIfAvailable();
      if (registry == null) {
        return;
      }
      FunctionCounter.builder(PROCESSED, worker, RunningWorker::handled)
          .tag("queue", worker.queue())
          .description("Jobs a Lineup handler returned from")
          .register(registry);
      FunctionCounter.builder(FAILED, worker, RunningWorker::failed)
          .tag("queue", worker.queue())
          .description("Jobs a Lineup handler threw on")
          .register(registry);
      Gauge.builder(IN_FLIGHT, worker, RunningWorker::inFlight)
          .tag("queue", worker.queue())
          .description("Jobs a Lineup handler is running now")
          .register(registry);
    };
  }

  @Bean
  LineupOptionsCustomizer lineupCommandTimer(ObjectProvider<MeterRegistry> registries) {
    return builder -> {
      MeterRegistry registry = registries.getIfAvailable();
      if (registry != null) {
        // One timer per command name, looked up without building a meter id per call: the engine
        // reports every command it sends.
        Map<String, Timer> timers = new ConcurrentHashMap<>();
        builder.latencyListener((command, latency) ->
            timers
                .computeIfAbsent(
                    command,
                    name ->
                        Timer.builder(REDIS_COMMANDS)
                            .tag("command", name)
                            .description("Latency of the Lineup engine's Redis commands")
                            .register(registry))
                .record(latency));
      }
    };
  }
}
