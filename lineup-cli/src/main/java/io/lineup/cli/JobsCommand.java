package io.lineup.cli;

import io.lineup.api.resource.Job;
import io.lineup.client.CancelResult;
import io.lineup.client.LineupClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code lineup jobs get|cancel}. */
@Command(
    name = "jobs",
    mixinStandardHelpOptions = true,
    description = "Read or cancel one job.",
    subcommands = {JobsCommand.Get.class, JobsCommand.Cancel.class})
final class JobsCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "name a command: get or cancel");
  }

  @Command(
      name = "get",
      mixinStandardHelpOptions = true,
      description = "A job's state, attempts, times, position in line, ETA, payload and result.")
  static final class Get implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name")
    String queue;

    @Parameters(index = "1", paramLabel = "ID", description = "The job's id")
    String id;

    @Override
    public Integer call() {
      try (LineupClient client = connection.connect()) {
        Job job = client.get(Queues.parse(queue), id);
        if (output.json) {
          output.json(job);
          return ExitCodes.OK;
        }
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"queue", job.queue()});
        lines.add(new String[] {"id", job.id()});
        lines.add(new String[] {"state", job.state().name()});
        lines.add(
            new String[] {"position", job.position() < 0 ? "-" : Long.toString(job.position())});
        lines.add(new String[] {"eta", Output.millis(job.etaMs())});
        lines.add(new String[] {"priority", Integer.toString(job.priority())});
        lines.add(new String[] {"attempts", job.attempts() + " of " + job.maxAttempts()});
        lines.add(new String[] {"created", Output.time(job.createdAt())});
        lines.add(new String[] {"due", Output.time(job.dueAt())});
        lines.add(new String[] {"finished", Output.time(job.finishedAt())});
        lines.add(new String[] {"last error", job.lastError() == null ? "-" : job.lastError()});
        lines.add(new String[] {"payload", Output.bytes(job.payloadBytes())});
        lines.add(new String[] {"result", Output.bytes(job.resultBytes())});
        output.fields(lines);
        return ExitCodes.OK;
      }
    }
  }

  @Command(
      name = "cancel",
      mixinStandardHelpOptions = true,
      description = "Cancel a job that has not finished.")
  static final class Cancel implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name")
    String queue;

    @Parameters(index = "1", paramLabel = "ID", description = "The job's id")
    String id;

    @Override
    public Integer call() {
      try (LineupClient client = connection.connect()) {
        CancelResult result = client.cancel(Queues.parse(queue), id);
        if (output.json) {
          com.fasterxml.jackson.databind.node.ObjectNode node = Output.MAPPER.createObjectNode();
          node.put("id", result.id());
          node.put("state", result.state().name());
          node.put("previous_state", result.previousState().name());
          output.json(node);
        } else {
          output
              .out()
              .println("cancelled " + result.id() + " (it was " + result.previousState() + ")");
        }
        return ExitCodes.OK;
      }
    }
  }
}
