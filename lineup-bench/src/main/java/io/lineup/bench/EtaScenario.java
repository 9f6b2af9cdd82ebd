package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.consumer.JobHandler;
import io.lineup.consumer.WorkerOptions;
import io.lineup.core.Worker;
import io.lineup.core.model.Eta;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PeekedJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@code eta_mape} and {@code eta_in_band}: how well the ETAs of waiting jobs match the moment they
 * are leased, in real time. {@link Counts#etaJobs()} jobs wait in a queue with a rate limit of
 * {@link Counts#etaRateLimit()} per second; {@link #CONSUMERS} workers lease and ack them as fast
 * as the limit allows (a no-op handler), so the true service rate is the limit from the first
 * second. From {@link Counts#etaReadAfterMs()} after the workers start, every {@link
 * #READ_EVERY_MS} ms the bench reads the ETA of the job at a random position of the line, beyond
 * the first second's worth of jobs (a shorter wait is inside the one-second granularity of the
 * estimate, and a percentage of it would measure where the rate limiter's once-a-second bursts
 * fall), while more than two seconds' worth wait. A reading's actual wait runs from the middle of
 * its {@code get} call to the start of the job's handler (this machine's clock, the same one as
 * Redis's).
 *
 * <p>{@code eta_mape}: the mean of |ETA − actual| ÷ actual over the readings, in %; {@code
 * eta_in_band}: the share of readings whose actual wait lies between the ETA's low and high. A
 * reading without an ETA counts as 100 % off and out of its band. The measurement runs {@link
 * Counts#rounds()} times; each figure is the median of the rounds'.
 */
final class EtaScenario {
  /** Workers consuming the queue, as in the measurement. */
  static final int CONSUMERS = 3;

  /** Concurrency of each worker: the most jobs it leases in one call. */
  static final int CONSUMER_CONCURRENCY = 32;

  /** Time between two readings, in ms. */
  static final long READ_EVERY_MS = 100;

  private EtaScenario() {}

  /** One ETA read, and when its job was leased. */
  private record Reading(String id, long readNanos, Eta eta) {}

  /** What one round measured. */
  private record Result(double mape, double inBand, int readings, double bias) {}

  static List<Figure> run(BenchContext context) {
    Counts counts = context.counts();
    int warmJobs = Math.min(counts.etaJobs(), counts.warmup(counts.etaJobs()));
    context.say("eta: warm-up, %,d jobs at %,d/s", warmJobs, counts.etaRateLimit());
    measure(context, context.freshQueue("eta-warmup"), warmJobs, false);

    int rounds = Math.max(1, counts.rounds());
    double[] mape = new double[rounds];
    double[] inBand = new double[rounds];
    RedisProbe probe = RedisProbe.start(context);
    for (int r = 0; r < rounds; r++) {
      context.say(
          "eta: round %d of %d: %,d jobs at a rate limit of %,d/s, %d workers, readings from %,d ms",
          r + 1,
          rounds,
          counts.etaJobs(),
          counts.etaRateLimit(),
          CONSUMERS,
          counts.etaReadAfterMs());
      Result result = measure(context, context.freshQueue("eta"), counts.etaJobs(), true);
      mape[r] = result.mape();
      inBand[r] = result.inBand();
      context.say(
          "eta: round %d of %d: %d readings, mean abs error %.2f %%, mean error %+.2f %%, in band"
              + " %.3f",
          r + 1, rounds, result.readings(), result.mape(), result.bias(), result.inBand());
    }
    long jobs = (long) rounds * counts.etaJobs();
    RedisProbe.Cost cost = probe.finish("eta", jobs);
    return List.of(
        new Figure(
            "eta_mape",
            Rounds.median(mape),
            Figure.Unit.PERCENT,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            jobs),
        new Figure(
            "eta_in_band",
            Rounds.median(inBand),
            Figure.Unit.SHARE,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            jobs));
  }

  /** Consumes {@code jobs} at the rate limit, reading ETAs when {@code read}. */
  private static Result measure(BenchContext context, QueueName queue, int jobs, boolean read) {
    Counts counts = context.counts();
    int limit = counts.etaRateLimit();
    context.lineup().configure(queue, QueueSettings.builder().rateLimit(limit).build());
    publish(context, queue, jobs);

    Map<String, Long> leasedNanos = new ConcurrentHashMap<>(jobs * 2);
    CountDownLatch done = new CountDownLatch(jobs);
    JobHandler<LeasedJob> recordLease =
        job -> {
          leasedNanos.putIfAbsent(job.id(), System.nanoTime());
          done.countDown();
          return null;
        };
    List<Worker> workers = new ArrayList<>();
    List<Reading> readings = new ArrayList<>();
    try {
      long start = System.nanoTime();
      for (int w = 0; w < CONSUMERS; w++) {
        workers.add(
            context
                .lineup()
                .worker(
                    queue,
                    recordLease,
                    WorkerOptions.defaults().withConcurrency(CONSUMER_CONCURRENCY))
                .start());
      }
      if (read) {
        long next = start + counts.etaReadAfterMs() * 1_000_000L;
        while (true) {
          Pause.millis(Math.max(0, (next - System.nanoTime()) / 1_000_000));
          next += READ_EVERY_MS * 1_000_000L;
          long waiting = context.lineup().stats(queue).ready();
          if (waiting <= 2L * limit) {
            break;
          }
          readOne(context, queue, limit, waiting).ifPresent(readings::add);
        }
      }
      long waitMs = jobs * 1000L / limit + 60_000;
      if (!done.await(waitMs, TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "eta: only "
                + (jobs - done.getCount())
                + " of "
                + jobs
                + " jobs ran in "
                + waitMs
                + " ms");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    } finally {
      workers.forEach(Worker::close);
      context.awaitNoLeases(queue);
      context.redis().dropQueue(queue);
    }
    if (read && readings.isEmpty()) {
      throw new IllegalStateException("eta: no ETA was read; the line drained too soon");
    }
    return score(readings, leasedNanos);
  }

  /** The ETA of the job at a random position beyond the first second's worth of jobs. */
  private static Optional<Reading> readOne(
      BenchContext context, QueueName queue, int limit, long waiting) {
    long position = ThreadLocalRandom.current().nextLong(limit, waiting);
    List<PeekedJob> peeked = context.lineup().peek(queue, (int) position, 1);
    if (peeked.isEmpty()) {
      return Optional.empty();
    }
    String id = peeked.get(0).id();
    long before = System.nanoTime();
    Optional<JobInfo> job = context.lineup().get(queue, id);
    long after = System.nanoTime();
    if (job.isEmpty() || job.get().position() < 0) {
      return Optional.empty();
    }
    return Optional.of(new Reading(id, before + (after - before) / 2, job.get().eta()));
  }

  private static Result score(List<Reading> readings, Map<String, Long> leasedNanos) {
    double errors = 0;
    double signed = 0;
    int inBand = 0;
    for (Reading reading : readings) {
      long actual = leasedNanos.get(reading.id()) - reading.readNanos();
      if (reading.eta() == null) {
        errors += 1;
        signed -= 1;
        continue;
      }
      long point = reading.eta().point().toNanos();
      errors += Math.abs(point - actual) / (double) actual;
      signed += (point - actual) / (double) actual;
      if (actual >= reading.eta().low().toNanos() && actual <= reading.eta().high().toNanos()) {
        inBand++;
      }
    }
    int n = Math.max(1, readings.size());
    return new Result(100 * errors / n, inBand / (double) n, readings.size(), 100 * signed / n);
  }

  private static void publish(BenchContext context, QueueName queue, int jobs) {
    byte[] payload = Payloads.payload();
    List<NewJob> batch = new ArrayList<>();
    for (int i = 0; i < jobs; i++) {
      batch.add(NewJob.of(payload));
      if (batch.size() == 1_000 || i == jobs - 1) {
        context.lineup().publishAll(queue, batch);
        batch = new ArrayList<>();
      }
    }
  }
}
