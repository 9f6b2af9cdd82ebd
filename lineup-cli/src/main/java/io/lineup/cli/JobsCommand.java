package io.lineup.cli;

import io.lineup.api.resource.Job;
import io.lineup.client.CancelResult;
import io.lineup.client.JobsClient;
import io.lineup.client.LineupClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code lineup jobs get|ls|cancel|delete|run-now|respawn}. */
@Command(
    name = "jobs",
    mixinStandardHelpOptions = true,
    description = "Read a job, list a queue's jobs by state, and act on jobs by id or by filter.",
    subcommands = {
      JobsCommand.Get.class,
      JobActionCommands.Ls.class,
      JobsCommand.Cancel.class,
      JobActionCommands.Delete.class,
      JobActionCommands.RunNow.class,
      JobActionCommands.Respawn.class
    })
final class JobsCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "name a command: get, ls, cancel, delete, run-now or respawn");
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
      description =
          "Cancel jobs that have not finished: one id (a finished job is an error), several ids"
              + " (ready, delayed or leased ones; others are skipped), or --all-matching.")
  static final class Cancel extends JobActionCommands.Act {
    @Override
    JobsClient.Action action() {
      return JobsClient.Action.CANCEL;
    }

    @Override
    public Integer call() {
      if (allMatching || ids == null || ids.size() != 1) {
        return super.call();
      }
      // One id: the job's own cancel route, which says what state the job was in.
      try (LineupClient client = connection.connect()) {
        CancelResult result = client.cancel(Queues.parse(queue), ids.get(0));
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
