package io.lineup.bench;

import io.lineup.bench.report.BenchReport;
import java.nio.file.Files;
import java.util.List;

/**
 * The adaptive dispatch and deadline figures ({@link ScenarioGroup#ADAPTIVE}): {@link
 * AdaptiveScenario}, then {@link DeadlineScenario}, through a server of their own (skipped, with
 * the reason, when the server jar is absent or the server fails).
 */
final class AdaptiveScenarios {
  /** The figures of the group. */
  static final List<String> FIGURES =
      List.of(
          "adaptive_goodput_share",
          "adaptive_429_share",
          "adaptive_latency_p99_ratio",
          "adaptive_settle_ms",
          "deadline_miss_share",
          "refused_or_expired_endpoint_calls");

  private AdaptiveScenarios() {}

  static void run(BenchContext context, BenchOptions options, BenchReport report) {
    AdaptiveCounts counts = AdaptiveCounts.of(context.counts().mode());
    counts.addTo(report);
    if (!Files.isRegularFile(options.serverJar())) {
      skip(
          context,
          report,
          "the server jar "
              + options.serverJar()
              + " is absent (build it: ./mvnw -pl lineup-server package)");
      return;
    }
    ServerProcess server;
    try {
      server = ServerProcess.start(options.serverJar(), context.redis().uri());
    } catch (RuntimeException e) {
      skip(context, report, "the server did not start: " + e.getMessage());
      return;
    }
    try (server;
        HttpApi api = new HttpApi(server.base(), server.token())) {
      context.say("adaptive: server listening on %s", server.base());
      AdaptiveScenario.run(context, counts, api, report).forEach(report::add);
      DeadlineScenario.run(context, counts, api).forEach(report::add);
    } catch (RuntimeException e) {
      context.say("adaptive scenario failed; the server's last output:%n%s", server.tail());
      skip(context, report, "the adaptive scenario failed: " + e.getMessage());
    }
  }

  private static void skip(BenchContext context, BenchReport report, String reason) {
    context.say("Figures skipped: %s", reason);
    for (String figure : FIGURES) {
      if (!report.values().containsKey(figure)) {
        report.skip(figure, reason);
      }
    }
  }
}
