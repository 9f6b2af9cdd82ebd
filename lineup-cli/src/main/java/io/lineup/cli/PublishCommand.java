package io.lineup.cli;

import io.lineup.api.resource.PublishResult;
import io.lineup.client.LineupClient;
import io.lineup.client.NewJob;
import io.lineup.client.QueueName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lineup publish QUEUE [PAYLOAD]}. */
@Command(
    name = "publish",
    mixinStandardHelpOptions = true,
    description = {
      "Publish one job.",
      "The payload is JSON (an argument, or standard input when it is - or missing); --text"
          + " sends it as text.",
      "Example: lineup publish shop/close-unpaid '{\"order\":42}' --delay 30m --id order-42"
    })
final class PublishCommand implements Callable<Integer> {
  @Mixin Connection connection;
  @Mixin Output output;

  @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name")
  String queue;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "PAYLOAD",
      description = "The payload; - or none reads standard input.")
  String payload;

  @Option(names = "--text", description = "Send the payload as text, not JSON.")
  boolean text;

  @Option(names = "--id", description = "A caller-given id: publishing it again is a no-op.")
  String id;

  @Option(names = "--priority", description = "-255 to 255, higher first (default 0).")
  Integer priority;

  @Option(names = "--delay", paramLabel = "DURATION", description = "Due after this, e.g. 30m.")
  String delay;

  @Option(names = "--run-at", paramLabel = "TIME", description = "Due at this ISO-8601 time.")
  String runAt;

  @Option(
      names = "--start-by",
      paramLabel = "TIME",
      description =
          "Latest start: an RFC 3339 time or a duration from now (30s); refused when the queue's"
              + " ETA cannot meet it, else the job's TTL.")
  String startBy;

  @Option(names = "--max-attempts", description = "Deliveries before dead letters.")
  Integer maxAttempts;

  @Option(names = "--ttr", paramLabel = "DURATION", description = "Lease length (time-to-run).")
  String ttr;

  @Option(names = "--ttl", paramLabel = "DURATION", description = "Expire when not done by then.")
  String ttl;

  @Option(names = "--unique-key", description = "Deduplication key (needs --unique-window).")
  String uniqueKey;

  @Option(names = "--unique-window", paramLabel = "DURATION", description = "How long it holds.")
  String uniqueWindow;

  @Option(
      names = "--key",
      description =
          "Fairness key: the tenant, customer or user a fair queue serves the job for"
              + " (1-128 characters of letters, digits and - _ . : @ / + =).")
  String key;

  @Override
  public Integer call() {
    QueueName name = Queues.parse(queue);
    String body = payload == null || payload.equals("-") ? readStdin() : payload;
    NewJob job;
    if (text) {
      job = NewJob.ofText(body);
    } else {
      try {
        job = NewJob.ofJson(body);
      } catch (IllegalArgumentException e) {
        throw new CliException(
            ExitCodes.USAGE,
            "the payload is not JSON (" + e.getMessage() + "); add --text to send text");
      }
    }
    if (id != null) {
      job.id(id);
    }
    if (priority != null) {
      job.priority(priority);
    }
    if (delay != null) {
      job.delay(Durations.parse("--delay", delay));
    }
    if (runAt != null) {
      try {
        job.runAt(Instant.parse(runAt));
      } catch (java.time.format.DateTimeParseException e) {
        throw new CliException(
            ExitCodes.USAGE,
            "--run-at: '" + runAt + "' is not an ISO-8601 time like 2030-01-01T09:00:00Z");
      }
    }
    if (maxAttempts != null) {
      job.maxAttempts(maxAttempts);
    }
    if (ttr != null) {
      job.timeToRun(Durations.parse("--ttr", ttr));
    }
    if (ttl != null) {
      job.ttl(Durations.parse("--ttl", ttl));
    }
    if (startBy != null) {
      job.startBy(Durations.deadline("--start-by", startBy, Instant.now()));
    }
    if ((uniqueKey == null) != (uniqueWindow == null)) {
      throw new CliException(ExitCodes.USAGE, "--unique-key and --unique-window go together");
    }
    if (uniqueKey != null) {
      job.uniqueKey(uniqueKey, Durations.parse("--unique-window", uniqueWindow));
    }
    if (key != null) {
      job.key(key);
    }
    try (LineupClient client = connection.connect()) {
      PublishResult result = client.publish(name, job);
      if (output.json) {
        output.json(result);
      } else {
        output.fields(
            List.of(
                new String[] {"id", result.id()},
                new String[] {"created", Boolean.toString(result.created())},
                new String[] {"state", String.valueOf(result.state())},
                new String[] {"due", Output.time(result.dueAt())},
                new String[] {
                  "position", result.position() < 0 ? "-" : Long.toString(result.position())
                }));
      }
    }
    return ExitCodes.OK;
  }

  private String readStdin() {
    try {
      return new String(output.in().readAllBytes(), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
