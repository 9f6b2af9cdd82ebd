package io.lineup.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.resource.QueueStats;
import io.lineup.client.LineupClient;
import io.lineup.client.QueueName;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lineup watch QUEUE}: live depths, one line per interval. */
@Command(
    name = "watch",
    mixinStandardHelpOptions = true,
    description = {
      "Live depths of a queue, one line per interval.",
      "Print a queue's depths and rates every --interval until Ctrl-C (or --times samples):"
          + " ready, delayed, leased, dead, acks per second, and published and acked since the"
          + " previous line."
    })
final class WatchCommand implements Callable<Integer> {
  @Mixin Connection connection;
  @Mixin Output output;

  @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name")
  String queue;

  @Option(names = "--interval", paramLabel = "DURATION", description = "Default 1s.")
  String interval = "1s";

  @Option(names = "--times", description = "Stop after this many lines (default: never).")
  int times;

  @Override
  public Integer call() throws InterruptedException {
    QueueName name = Queues.parse(queue);
    Duration every = Durations.parse("--interval", interval);
    if (every.toMillis() < 100) {
      throw new CliException(ExitCodes.USAGE, "--interval: at least 100ms");
    }
    try (LineupClient client = connection.connect()) {
      QueueStats previous = null;
      String format = "%-8s %9s %9s %9s %7s %8s %10s %8s%n";
      for (int line = 0; times == 0 || line < times; line++) {
        if (line > 0) {
          Thread.sleep(every.toMillis());
        }
        QueueStats now = client.stats(name);
        if (line == 0 && !output.json) {
          // After the first read, so an unknown queue prints only its error.
          output
              .out()
              .printf(
                  Locale.ROOT,
                  format,
                  "TIME",
                  "READY",
                  "DELAYED",
                  "LEASED",
                  "DEAD",
                  "ACKS/S",
                  "+PUBLISHED",
                  "+ACKED");
        }
        long published =
            previous == null ? 0 : now.counter("published") - previous.counter("published");
        long acked = previous == null ? 0 : now.counter("acked") - previous.counter("acked");
        if (output.json) {
          ObjectNode node = Output.MAPPER.valueToTree(now);
          node.put("published_since", published);
          node.put("acked_since", acked);
          output.json(node);
        } else {
          output
              .out()
              .printf(
                  Locale.ROOT,
                  format,
                  LocalTime.now().truncatedTo(ChronoUnit.SECONDS),
                  now.counts().ready(),
                  now.counts().delayed(),
                  now.counts().leased(),
                  now.counts().dead(),
                  Output.rate(now.serviceRate()),
                  "+" + published,
                  "+" + acked);
          output.out().flush();
        }
        previous = now;
      }
    }
    return ExitCodes.OK;
  }
}
