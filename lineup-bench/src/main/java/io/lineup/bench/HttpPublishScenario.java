package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.core.model.QueueName;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * {@code http_publish_per_s}: {@code POST /v1/queues/{ns}/{queue}/jobs} with one job ({@link
 * Payloads#BYTES}-byte JSON payload) per request, {@link #IN_FLIGHT} requests at once from this
 * machine over as many keep-alive connections driven by one thread ({@link RepeatedRequest}), after
 * a warm-up of as many; the median of {@link Counts#rounds()} rounds.
 */
final class HttpPublishScenario {
  /** Requests in flight at once, one per connection. */
  static final int IN_FLIGHT = 64;

  private HttpPublishScenario() {}

  static Figure run(BenchContext context, HttpApi api, ServerProcess server) {
    Counts counts = context.counts();
    String payload = Payloads.text();
    QueueName warm = context.freshQueue("http-publish-warmup");
    // A warm-up of the measurement's own size: after one of a tenth, the first measured round was
    // still the slowest in three runs of four (the server's CPU per job 25-30% over the next).
    int warmJobs = counts.httpPublishJobs();
    context.say("http_publish_per_s: warm-up %,d requests", warmJobs);
    publish(api, warm, payload, warmJobs);
    context.redis().dropQueue(warm);

    return Rounds.median(
        context, context.counts().rounds(), round -> measure(context, api, server, payload));
  }

  private static long publish(HttpApi api, QueueName queue, String payload, int jobs) {
    try {
      return api.publishRepeatedly(queue, payload, jobs, IN_FLIGHT);
    } catch (IOException e) {
      throw new UncheckedIOException("http_publish_per_s: " + e.getMessage(), e);
    }
  }

  private static Figure measure(
      BenchContext context, HttpApi api, ServerProcess server, String payload) {
    Counts counts = context.counts();
    QueueName queue = context.freshQueue("http-publish");
    context.say(
        "http_publish_per_s: %,d requests, %d in flight", counts.httpPublishJobs(), IN_FLIGHT);
    RedisProbe probe = RedisProbe.start(context);
    long serverCpu = server.cpuMicros();
    long nanos = publish(api, queue, payload, counts.httpPublishJobs());
    RedisProbe.Cost cost = probe.finish("http_publish_per_s", counts.httpPublishJobs());
    context.say(
        "http_publish_per_s: the server process used %.1f µs of CPU per job",
        (server.cpuMicros() - serverCpu) / (double) counts.httpPublishJobs());
    long published = context.lineup().stats(queue).ready();
    context.redis().dropQueue(queue);
    if (published != counts.httpPublishJobs()) {
      throw new IllegalStateException(
          "http_publish_per_s: "
              + published
              + " jobs in line after "
              + counts.httpPublishJobs()
              + " publishes");
    }
    return new Figure(
        "http_publish_per_s",
        BenchContext.perSecond(counts.httpPublishJobs(), nanos),
        Figure.Unit.PER_SECOND,
        cost.redisMicrosPerJob(),
        cost.benchMicrosPerJob(),
        counts.httpPublishJobs());
  }
}
