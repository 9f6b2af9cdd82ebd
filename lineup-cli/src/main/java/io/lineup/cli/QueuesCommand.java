package io.lineup.cli;

import io.lineup.api.resource.QueueStats;
import io.lineup.client.LineupClient;
import io.lineup.client.QueueName;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code lineup queues [QUEUE...]}: a table of depths and rates. */
@Command(
    name = "queues",
    mixinStandardHelpOptions = true,
    description = {
      "A table of queue depths and rates.",
      "Columns: jobs ready, delayed, leased, dead and finished, the service rate (acks"
          + " per second, averaged over 30 s), lifetime published and acked counts, and limits.",
      "Without QUEUE: every queue the token may see."
    })
final class QueuesCommand implements Callable<Integer> {
  @Mixin Connection connection;
  @Mixin Output output;

  @Parameters(arity = "0..*", paramLabel = "QUEUE", description = "namespace/name")
  List<String> queues = new ArrayList<>();

  @Override
  public Integer call() {
    try (LineupClient client = connection.connect()) {
      List<QueueName> names = new ArrayList<>();
      if (queues.isEmpty()) {
        names.addAll(client.queues());
      } else {
        queues.forEach(q -> names.add(Queues.parse(q)));
      }
      List<QueueStats> stats = new ArrayList<>();
      for (QueueName name : names) {
        stats.add(client.stats(name));
      }
      if (output.json) {
        output.json(stats);
        return ExitCodes.OK;
      }
      List<List<String>> rows = new ArrayList<>();
      for (QueueStats s : stats) {
        rows.add(
            List.of(
                s.queue(),
                Long.toString(s.counts().ready()),
                Long.toString(s.counts().delayed()),
                Long.toString(s.counts().leased()),
                Long.toString(s.counts().dead()),
                Long.toString(s.counts().finished()),
                Output.rate(s.serviceRate()),
                Long.toString(s.counter("published")),
                Long.toString(s.counter("acked")),
                limits(s)));
      }
      output.table(
          List.of(
              "QUEUE",
              "READY",
              "DELAYED",
              "LEASED",
              "DEAD",
              "FINISHED",
              "ACKS/S",
              "PUBLISHED",
              "ACKED",
              "LIMITS"),
          rows);
      return ExitCodes.OK;
    }
  }

  private static String limits(QueueStats s) {
    List<String> parts = new ArrayList<>();
    if (Boolean.TRUE.equals(s.settings().paused())) {
      parts.add("paused");
    }
    if (s.settings().rateLimit() != null && s.settings().rateLimit() > 0) {
      parts.add(s.settings().rateLimit() + "/s");
    }
    if (s.settings().concurrencyLimit() != null && s.settings().concurrencyLimit() > 0) {
      parts.add(s.settings().concurrencyLimit() + " at once");
    }
    return parts.isEmpty() ? "-" : String.join(", ", parts);
  }
}
