package io.lineup.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.resource.LeasedJob;
import io.lineup.client.LineupClient;
import io.lineup.client.QueueName;
import io.lineup.consumer.ConsumerLoop;
import io.lineup.consumer.ConsumerOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lineup consume QUEUE}: prints jobs, or runs a shell command for each. */
@Command(
    name = "consume",
    mixinStandardHelpOptions = true,
    description = {
      "Print jobs, or run a shell command per job (acked on exit 0).",
      "Lease jobs and print them (each printed job is acked), or with --exec run a shell command"
          + " per job: the payload on its standard input, LINEUP_QUEUE, LINEUP_JOB_ID,"
          + " LINEUP_ATTEMPT and LINEUP_MAX_ATTEMPTS in its environment. Exit status 0 acks the"
          + " job (its standard output, when there is any, is the result); any other nacks it.",
      "Stops after --max jobs, or when no job came within --wait, unless --follow.",
      "Example: lineup consume shop/close-unpaid --exec './close-order.sh' --follow"
    })
final class ConsumeCommand implements Callable<Integer> {
  @Mixin Connection connection;
  @Mixin Output output;

  @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name")
  String queue;

  @Option(names = "--exec", paramLabel = "COMMAND", description = "Run this with sh -c per job.")
  String exec;

  @Option(names = "--max", description = "Stop after this many jobs (default: no limit).")
  int max;

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      description = "Longest wait for a job before stopping (default 5s; up to 300s).")
  String wait = "5s";

  @Option(names = "--follow", description = "Keep waiting for jobs until interrupted.")
  boolean follow;

  @Option(
      names = "--concurrency",
      description = "Jobs handled at once with --exec (default 1, up to 1000).")
  int concurrency = 1;

  @Override
  public Integer call() throws Exception {
    QueueName name = Queues.parse(queue);
    Duration waitFor = Durations.parse("--wait", wait);
    if (waitFor.compareTo(LineupClient.MAX_LEASE_WAIT) > 0) {
      throw new CliException(ExitCodes.USAGE, "--wait: at most 300s");
    }
    if (concurrency < 1 || concurrency > LineupClient.MAX_BATCH) {
      throw new CliException(ExitCodes.USAGE, "--concurrency: 1 to 1000");
    }
    if (max < 0) {
      throw new CliException(ExitCodes.USAGE, "--max: 0 or more");
    }
    ConsumeSource source;
    ConsumerLoop<LeasedJob> loop;
    try (LineupClient client = connection.connect()) {
      source = new ConsumeSource(client, name, waitFor, output.err());
      loop =
          new ConsumerLoop<>(
              source,
              exec == null ? this::print : this::runCommand,
              ConsumerOptions.builder()
                  .concurrency(exec == null ? 1 : concurrency)
                  .limit(max)
                  .stopWhenEmpty(!follow)
                  .stopOnLeaseError(true)
                  .name("lineup-consume")
                  .label(name.toString())
                  .build(),
              this::log);
      try {
        loop.start().awaitEnd();
      } finally {
        loop.close();
      }
    }
    long handled = loop.leased();
    long failed = loop.failed() + source.lostAcks();
    if (exec != null) {
      String summary = handled + " jobs: " + source.acked() + " acked, " + failed + " failed";
      if (output.json) {
        ObjectNode node = Output.MAPPER.createObjectNode();
        node.put("jobs", handled);
        node.put("acked", source.acked());
        node.put("failed", failed);
        output.json(node);
      } else {
        output.err().println("lineup: " + summary);
      }
    }
    return failed > 0 ? ExitCodes.JOBS_FAILED : ExitCodes.OK;
  }

  /** The loop's warnings and notices on standard error, as the command's own lines. */
  private void log(Level level, Supplier<String> message) {
    if (level.getSeverity() >= Level.INFO.getSeverity()) {
      output.err().println("lineup: " + message.get());
    }
  }

  /** Prints the job; it is acked when this returns. */
  private byte[] print(LeasedJob job) {
    if (output.json) {
      output.json(job);
    } else {
      output
          .out()
          .println(
              job.id()
                  + "  attempt "
                  + job.attempt()
                  + "/"
                  + job.maxAttempts()
                  + "  "
                  + Output.bytes(job.payloadBytes()));
      output.out().flush();
    }
    return null;
  }

  /**
   * Runs the command for the job. Exit status 0 returns its standard output (stripped; null when
   * empty) for the ack; any other status, or a command that could not start, throws for the nack.
   * An interrupt (the job's lease was lost) ends the command.
   */
  private byte[] runCommand(LeasedJob job) throws CommandFailed {
    Process process;
    try {
      ProcessBuilder builder = new ProcessBuilder("sh", "-c", exec);
      builder.redirectError(ProcessBuilder.Redirect.INHERIT);
      Map<String, String> env = builder.environment();
      env.put("LINEUP_QUEUE", job.queue());
      env.put("LINEUP_JOB_ID", job.id());
      env.put("LINEUP_ATTEMPT", Integer.toString(job.attempt()));
      env.put("LINEUP_MAX_ATTEMPTS", Integer.toString(job.maxAttempts()));
      process = builder.start();
    } catch (IOException e) {
      throw new CommandFailed("could not run the command: " + e.getMessage());
    }
    try {
      Thread feeder =
          Thread.ofVirtual()
              .start(() -> {
                try (OutputStream in = process.getOutputStream()) {
                  in.write(job.payloadBytes());
                } catch (IOException closedEarly) {
                  // The command did not read its input; that is its choice.
                }
              });
      byte[] stdout = readAll(process.getInputStream());
      int status = process.waitFor();
      feeder.join();
      if (status != 0) {
        throw new CommandFailed("the command exited with status " + status);
      }
      String text = new String(stdout, StandardCharsets.UTF_8).strip();
      return text.isEmpty() ? null : text.getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CommandFailed("could not run the command: " + e.getMessage());
    } catch (InterruptedException e) {
      process.destroy();
      Thread.currentThread().interrupt();
      throw new CommandFailed("the command was stopped: its lease was lost");
    }
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    in.transferTo(buffer);
    return buffer.toByteArray();
  }
}
