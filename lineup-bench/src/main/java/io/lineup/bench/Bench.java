package io.lineup.bench;

import io.lineup.bench.report.BenchReport;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;

/**
 * One run: starts (or connects to) Redis, measures the reference, then each scenario after its
 * warm-up, and collects the figures. The order matters only where scenarios share data: the deep
 * queue is filled once ({@code bytes_per_job}), looked up ({@code rank_us_p99}), then consumed from
 * the front ({@code consume_per_s_1m}) in rounds that take turns with those of {@code
 * consume_per_s}.
 */
public final class Bench {
  private Bench() {}

  /**
   * Runs the reference and the scenarios the options select. A failure of the HTTP scenarios is
   * reported as skipped figures (with the reason and the server's last output), so the other
   * figures of a long run survive it.
   *
   * @param progress where progress lines go
   * @throws IllegalStateException when a scenario fails (a job lost, a timeout, Redis gone)
   */
  public static BenchReport run(BenchOptions options, PrintStream progress) {
    long start = System.nanoTime();
    Counts counts = options.runCounts();
    BenchReport report = new BenchReport(counts.mode());
    counts.asMap().forEach(report::count);
    report.count("publish_in_flight", PublishScenario.IN_FLIGHT);
    report.count("bulk_jobs_per_call", BulkPublishScenario.JOBS_PER_CALL);
    report.count("bulk_in_flight", BulkPublishScenario.IN_FLIGHT);
    report.count("consume_worker_concurrency", ConsumeScenario.WORKER_CONCURRENCY);
    report.count("payload_bytes", Payloads.BYTES);
    report.count("eta_consumers", EtaScenario.CONSUMERS);
    report.count("eta_consumer_concurrency", EtaScenario.CONSUMER_CONCURRENCY);
    report.count("eta_read_every_ms", EtaScenario.READ_EVERY_MS);
    try (BenchRedis redis = BenchRedis.open(options.redisUrl(), options.embeddedRedis());
        Lineup lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build())) {
      report
          .environment("redis_version", redis.version())
          .environment("redis_address", redis.uri())
          .environment("redis_own_process", redis.ownProcess())
          .environment("redis_binary", redis.binary())
          .environment("redis_allocator", redis.allocator())
          .environment("cores", Runtime.getRuntime().availableProcessors())
          .environment("java", Runtime.version().toString());
      BenchContext context =
          new BenchContext(lineup, redis, counts, progress, options.commandStats());
      context.say(
          "%s run against Redis %s at %s%s",
          counts.mode(),
          redis.version(),
          redis.uri(),
          redis.ownProcess() ? " (started by the bench)" : "");

      report.add(RawScriptScenario.run(context));
      DeepQueue deep = null;
      boolean consume = options.runs(ScenarioGroup.CONSUME);
      try (FloorScenario floor =
          consume
                  || options.runs(ScenarioGroup.PUBLISH)
                  || options.runs(ScenarioGroup.BULK)
                  || options.runs(ScenarioGroup.DEEP)
              ? FloorScenario.open(context)
              : null) {
        if (floor != null) {
          report.add(floor.publishFigure());
          if (!consume) {
            // Otherwise measured in the consume group's rounds, next to the engine's drains.
            report.add(floor.consumeFigure());
          }
        }
        if (options.runs(ScenarioGroup.PUBLISH)) {
          report.add(PublishScenario.run(context));
        }
        if (options.runs(ScenarioGroup.BULK)) {
          report.add(BulkPublishScenario.run(context));
        }
        if (options.runs(ScenarioGroup.DEEP)) {
          deep = DeepQueue.fill(context);
          report.add(deep.bytesPerJob());
          report.add(RankScenario.run(context, deep));
        }
        if (consume || deep != null) {
          ConsumeScenario.run(context, consume, deep == null ? null : deep.queue(), floor)
              .forEach(report::add);
        }
      }
      if (deep != null) {
        redis.dropQueue(deep.queue());
      }
      if (options.runs(ScenarioGroup.ARCHIVE)) {
        runArchive(context, report);
      }
      if (options.runs(ScenarioGroup.PRUNE)) {
        PruneScenario.run(context).forEach(report::add);
      }
      if (options.runs(ScenarioGroup.LATE)) {
        LatenessScenario.run(context).forEach(report::add);
      }
      if (options.runs(ScenarioGroup.LATE10K)) {
        LatenessScenario.runTenK(context).forEach(report::add);
      }
      if (options.runs(ScenarioGroup.SCHEDULE)) {
        ScheduleCounts scheduleCounts = ScheduleCounts.of(counts.mode());
        scheduleCounts.addTo(report);
        ScheduleScenario.run(context, scheduleCounts).forEach(report::add);
      }
      if (options.runs(ScenarioGroup.FAIR)) {
        FairCounts fairCounts = FairCounts.of(counts.mode());
        fairCounts.addTo(report);
        FairScenario.run(context, fairCounts).forEach(report::add);
      }
      if (options.runs(ScenarioGroup.ETA)) {
        EtaScenario.run(context).forEach(report::add);
      }
      if (options.runs(ScenarioGroup.DURABLE)) {
        // Last of the engine's figures: the replica it starts follows the bench's Redis only
        // while this scenario runs.
        report.add(DurablePublishScenario.run(context));
      }
      if (options.runs(ScenarioGroup.HTTP)) {
        runHttp(context, options, report);
      }
      if (options.runs(ScenarioGroup.DISPATCH)) {
        runDispatch(context, options, report);
      }
      if (options.runs(ScenarioGroup.ADAPTIVE)) {
        AdaptiveScenarios.run(context, options, report);
      }
      if (options.runs(ScenarioGroup.ROOM)) {
        RoomScenarios.run(context, options, report);
      }
      if (options.runs(ScenarioGroup.PASS)) {
        PassVerifyScenario.run(context, RoomCounts.of(counts.mode())).forEach(report::add);
      }
    }
    report.seconds((System.nanoTime() - start) / 1e9);
    return report;
  }

  /** The figures archived consumption gives, or the reason for skipping them: no database. */
  private static void runArchive(BenchContext context, BenchReport report) {
    java.util.Optional<String> unreachable = ArchiveScenario.unreachable();
    if (unreachable.isPresent()) {
      context.say("archive: skipped: %s", unreachable.get());
      for (String figure : ARCHIVE_FIGURES) {
        report.skip(figure, unreachable.get());
      }
      return;
    }
    try {
      ArchiveScenario.run(context).forEach(report::add);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException("the archive scenario failed: " + e.getMessage(), e);
    }
  }

  /** The figures of the archive group. */
  static final List<String> ARCHIVE_FIGURES =
      List.of(
          "consume_per_s_unarchived",
          "consume_per_s_archived",
          "archive_rows_per_s",
          "archive_lag_ms_p99");

  /** The HTTP figures, or the reason for skipping them: the jar is absent, or the server fails. */
  private static void runHttp(BenchContext context, BenchOptions options, BenchReport report) {
    if (!Files.isRegularFile(options.serverJar())) {
      skipHttp(
          context,
          report,
          "the server jar "
              + options.serverJar()
              + " is absent (build it: ./mvnw -pl lineup-server package)");
      return;
    }
    context.say("http: starting the server %s", options.serverJar());
    ServerProcess server;
    try {
      server = ServerProcess.start(options.serverJar(), context.redis().uri());
    } catch (RuntimeException e) {
      skipHttp(context, report, "the server did not start: " + e.getMessage());
      return;
    }
    try (server;
        HttpApi api = new HttpApi(server.base(), server.token())) {
      context.say("http: server listening on %s", server.base());
      ServerWarmup.run(context, api, server);
      report.add(HttpPublishScenario.run(context, api, server));
      report.add(HttpConsumeScenario.run(context, api, server));
    } catch (RuntimeException e) {
      context.say("HTTP scenario failed; the server's last output:%n%s", server.tail());
      skipHttp(context, report, "the HTTP scenario failed: " + e.getMessage());
    }
  }

  /** The dispatch figures (a server of their own), or the reason for skipping them. */
  private static void runDispatch(BenchContext context, BenchOptions options, BenchReport report) {
    if (!Files.isRegularFile(options.serverJar())) {
      skip(
          context,
          report,
          DISPATCH_FIGURES,
          "the server jar "
              + options.serverJar()
              + " is absent (build it: ./mvnw -pl lineup-server package)");
      return;
    }
    ServerProcess server;
    try {
      server = ServerProcess.start(options.serverJar(), context.redis().uri());
    } catch (RuntimeException e) {
      skip(context, report, DISPATCH_FIGURES, "the server did not start: " + e.getMessage());
      return;
    }
    try (server;
        HttpApi api = new HttpApi(server.base(), server.token())) {
      context.say("dispatch: server listening on %s", server.base());
      DispatchScenario.run(context, api, server).forEach(report::add);
    } catch (RuntimeException e) {
      context.say("dispatch scenario failed; the server's last output:%n%s", server.tail());
      skip(context, report, DISPATCH_FIGURES, "the dispatch scenario failed: " + e.getMessage());
    }
  }

  /** The figures of the dispatch group. */
  static final List<String> DISPATCH_FIGURES =
      List.of(
          "dispatch_per_s",
          "dispatch_start_ms_p99",
          "dispatch_rate_error",
          "dispatch_rate_achieved");

  private static void skip(
      BenchContext context, BenchReport report, List<String> figures, String reason) {
    context.say("Figures skipped: %s", reason);
    for (String figure : figures) {
      if (!report.values().containsKey(figure)) {
        report.skip(figure, reason);
      }
    }
  }

  /** Marks the HTTP figures not measured yet as skipped. */
  private static void skipHttp(BenchContext context, BenchReport report, String reason) {
    context.say("HTTP figures skipped: %s", reason);
    for (String figure : List.of("http_publish_per_s", "http_consume_per_s")) {
      if (!report.values().containsKey(figure)) {
        report.skip(figure, reason);
      }
    }
  }
}
