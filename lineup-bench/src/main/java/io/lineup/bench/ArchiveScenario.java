package io.lineup.bench;

import io.lineup.archive.Archive;
import io.lineup.archive.ArchiveSettings;
import io.lineup.bench.report.Figure;
import io.lineup.core.ArchiveOutbox;
import io.lineup.core.model.QueueName;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code consume_per_s_unarchived}, {@code consume_per_s_archived}, {@code archive_rows_per_s} and
 * {@code archive_lag_ms_p99}: the {@code consume_per_s} drain without and with the SQL archive on,
 * to a PostgreSQL schema of the run's own. After warm-up drains of a tenth without and with it
 * (unmeasured: the archive's paths compile in them), each of the run's rounds drains a fresh queue
 * without the archive running and another with it, back to back, taking turns in order ({@link
 * Rounds#medianPair}); the figures of the round whose ratio of the two drain rates is the median
 * are reported.
 *
 * <p>{@code consume_per_s_archived} is the drain's rate, measured as {@code consume_per_s} is.
 * {@code archive_rows_per_s} is the jobs archived divided by the time from the drain's start until
 * the last row was committed. {@code archive_lag_ms_p99} is the 99th percentile of the age of the
 * queue's oldest unarchived outbox entry, sampled every {@value #SAMPLE_MS} ms from the drain's
 * start until the archive caught up (0 while the outbox is empty). The outbox's peak length is
 * printed.
 */
final class ArchiveScenario {
  /** The database: {@code LINEUP_BENCH_ARCHIVE_URL}, else the local PostgreSQL's {@code test}. */
  static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test";

  /** The database user: {@code LINEUP_BENCH_ARCHIVE_USER}, else {@code postgres}. */
  static final String DEFAULT_USER = "postgres";

  static final int SAMPLE_MS = 10;

  /** Longest the archive may take to catch up after the drain before the run fails. */
  static final Duration CATCH_UP = Duration.ofMinutes(5);

  private ArchiveScenario() {}

  /** The database URL this run archives to. */
  static String url() {
    String url = System.getenv("LINEUP_BENCH_ARCHIVE_URL");
    return url == null || url.isBlank() ? DEFAULT_URL : url;
  }

  private static String user() {
    String user = System.getenv("LINEUP_BENCH_ARCHIVE_USER");
    return user == null || user.isBlank() ? DEFAULT_USER : user;
  }

  private static String password() {
    String password = System.getenv("LINEUP_BENCH_ARCHIVE_PASSWORD");
    return password == null ? "" : password;
  }

  /**
   * Whether the database answers; the reason it does not otherwise.
   *
   * @return empty when reachable
   */
  static Optional<String> unreachable() {
    try (Connection c = DriverManager.getConnection(url(), user(), password())) {
      return Optional.empty();
    } catch (SQLException e) {
      return Optional.of("the archive database " + url() + " is not reachable: " + e.getMessage());
    }
  }

  static List<Figure> run(BenchContext context) throws SQLException {
    String schema =
        "lineup_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    execute("CREATE SCHEMA " + schema);
    String url = url() + (url().contains("?") ? "&" : "?") + "currentSchema=" + schema;
    int jobs = context.counts().consumeJobs();
    ArchiveSettings settings =
        ArchiveSettings.builder(url)
            .user(user())
            .password(password().isEmpty() ? null : password())
            .build();
    ArchiveSwitch archive = new ArchiveSwitch(context, settings);
    try {
      // Whole bulk calls, as the filler publishes them, so that the drain takes every job.
      int warm = QueueFiller.filled(context.counts().warmup(jobs));
      context.say("consume_per_s_archived: warm-up %,d jobs, without and with the archive", warm);
      unarchivedRound(context, archive, warm);
      round(context, archive.on(), warm, "consume_per_s_archived warm-up");
      context.say(
          "consume_per_s_archived: %,d jobs waiting a round, archived to %s",
          jobs, settings.safeUrl());
      // Each archived drain is paired with a drain without the archive, back to back: the target
      // is a ratio of the two, and the host's speed drifts between the consume group's rounds
      // and these by more than the archive's cost (Rounds.medianPair).
      Map<Figure, List<Figure>> archivedRounds = new IdentityHashMap<>();
      List<Figure> pair =
          Rounds.medianPair(
              context,
              context.counts().rounds(),
              r -> unarchivedRound(context, archive, jobs),
              r -> {
                List<Figure> figures = round(context, archive.on(), jobs, "consume_per_s_archived");
                archivedRounds.put(figures.get(0), figures);
                return figures.get(0);
              });
      List<Figure> figures = new ArrayList<>();
      figures.add(pair.get(0));
      figures.addAll(archivedRounds.get(pair.get(1)));
      return figures;
    } finally {
      archive.off();
      // Archiving stays switched on per queue in Redis: switch it off for what follows.
      for (QueueName known : context.lineup().queues()) {
        context.lineup().archiveOutbox().disable(known);
      }
      execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }

  /**
   * {@code consume_per_s_unarchived}: the same drain with no archive running (an archive switches
   * every queue it finds on, so it is stopped first).
   */
  private static Figure unarchivedRound(BenchContext context, ArchiveSwitch archive, int jobs) {
    archive.off();
    QueueName queue = context.freshQueue("consume-unarchived");
    try {
      QueueFiller.fill(context, queue, jobs, 0);
      return ConsumeScenario.drain(context, queue, jobs, "consume_per_s_unarchived");
    } finally {
      context.redis().dropQueue(queue);
    }
  }

  /** The archive of the run, started and stopped between drains; one runs at a time. */
  private static final class ArchiveSwitch {
    private final BenchContext context;
    private final ArchiveSettings settings;
    private Archive running;

    ArchiveSwitch(BenchContext context, ArchiveSettings settings) {
      this.context = context;
      this.settings = settings;
    }

    /** The running archive, started (and its schema made) when none runs. */
    Archive on() {
      if (running == null) {
        Archive archive = Archive.start(context.lineup(), settings, "bench");
        long waitUntil = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!archive.archiver().isReady()) {
          if (System.nanoTime() > waitUntil) {
            archive.close();
            throw new IllegalStateException("the archive did not create its schema within 30 s");
          }
          Pause.millis(10);
        }
        running = archive;
      }
      return running;
    }

    /** Stops the archive when one runs. */
    void off() {
      if (running != null) {
        running.close();
        running = null;
      }
    }
  }

  /**
   * One drain of a fresh queue of {@code jobs} with archiving on, until the archive holds them all.
   *
   * @return the drain's rate, the rows per second and the lag's 99th percentile
   */
  private static List<Figure> round(BenchContext context, Archive archive, int jobs, String name) {
    QueueName queue = context.freshQueue("consume-archived");
    try {
      archive.archiver().enable(queue);
      QueueFiller.fill(context, queue, jobs, 0);
      ArchiveOutbox outbox = context.lineup().archiveOutbox();
      List<Double> lags = new ArrayList<>();
      AtomicLong peak = new AtomicLong();
      AtomicBoolean sampling = new AtomicBoolean(true);
      Thread sampler =
          Thread.ofPlatform()
              .name("archive-lag-sampler")
              .start(() -> {
                while (sampling.get()) {
                  long now = System.currentTimeMillis();
                  Optional<Instant> oldest = outbox.oldestEntryAt(queue);
                  synchronized (lags) {
                    lags.add(
                        oldest
                            .map(at -> (double) Math.max(0, now - at.toEpochMilli()))
                            .orElse(0.0));
                  }
                  peak.accumulateAndGet(outbox.length(queue), Math::max);
                  Pause.millis(SAMPLE_MS);
                }
              });
      long start = System.nanoTime();
      long rowsBefore = archive.stats().rowsWritten();
      RedisProbe probe = RedisProbe.start(context);
      Figure consumed = ConsumeScenario.drain(context, queue, jobs, name);
      long deadline = System.nanoTime() + CATCH_UP.toNanos();
      while (outbox.length(queue) > 0 || archive.stats().rowsWritten() - rowsBefore < jobs) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the archive did not catch up within " + CATCH_UP);
        }
        Pause.millis(1);
      }
      long nanos = System.nanoTime() - start;
      sampling.set(false);
      try {
        sampler.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      RedisProbe.Cost cost = probe.finish("archive_rows_per_s", jobs);
      long rows = archive.reader().count(queue);
      if (rows != jobs) {
        throw new IllegalStateException("archived " + rows + " rows of " + jobs + " jobs");
      }
      double p99;
      synchronized (lags) {
        p99 = new Percentiles(lags.stream().mapToDouble(Double::doubleValue).toArray()).at(99);
      }
      context.say(
          "archive: %,d rows, outbox peak %,d jobs, lag p99 %.0f ms (%d samples)",
          rows, peak.get(), p99, lags.size());
      return List.of(
          consumed,
          new Figure(
              "archive_rows_per_s",
              BenchContext.perSecond(rows, nanos),
              Figure.Unit.PER_SECOND,
              cost.redisMicrosPerJob(),
              cost.benchMicrosPerJob(),
              rows),
          new Figure(
              "archive_lag_ms_p99",
              // At least a millisecond: a lag below the clock's resolution still took time.
              Math.max(1, p99),
              Figure.Unit.MILLISECONDS,
              cost.redisMicrosPerJob(),
              cost.benchMicrosPerJob(),
              rows));
    } finally {
      context.lineup().archiveOutbox().disable(queue);
      context.redis().dropQueue(queue);
    }
  }

  private static void execute(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url(), user(), password());
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
