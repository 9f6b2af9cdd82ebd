package io.lineup.cli;

import io.lineup.api.resource.JobActionResult;
import io.lineup.api.resource.JobListPage;
import io.lineup.api.resource.ListedJob;
import io.lineup.client.JobsClient;
import io.lineup.client.LineupClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lineup jobs ls} and the actions on jobs by id or by filter: {@code run-now}, {@code
 * respawn}, {@code delete} (and {@code cancel} of several, {@link JobsCommand.Cancel}).
 */
final class JobActionCommands {
  private JobActionCommands() {}

  @Command(
      name = "ls",
      mixinStandardHelpOptions = true,
      description =
          "A page of a queue's jobs in one state, in that state's order: ready by place in line,"
              + " delayed by due time, leased by lease deadline, dead by death, finished by finish"
              + " time. Pass the printed cursor to --cursor for the next page.")
  static final class Ls implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name")
    String queue;

    @Mixin JobListOptions filter;

    @Option(names = "--limit", description = "At most this many, 1 to 100 (default 20).")
    int limit = 20;

    @Option(names = "--cursor", description = "The cursor a page before printed.")
    String cursor;

    @Option(names = "--desc", description = "Last to first.")
    boolean descending;

    @Override
    public Integer call() {
      try (LineupClient client = connection.connect()) {
        JobListPage page =
            client.jobs(Queues.parse(queue)).page(filter.filter(), cursor, limit, descending);
        if (output.json) {
          output.json(page);
          return ExitCodes.OK;
        }
        List<List<String>> rows = new ArrayList<>();
        for (ListedJob job : page.jobs()) {
          rows.add(
              List.of(
                  job.id(),
                  job.state().name(),
                  job.position() < 0 ? Output.time(job.at()) : "#" + job.position(),
                  Integer.toString(job.priority()),
                  Integer.toString(job.attempts()),
                  job.lastError() == null ? "-" : job.lastError(),
                  Output.bytes(job.payloadBytes())));
        }
        output.table(
            List.of("ID", "STATE", "AT", "PRIORITY", "ATTEMPTS", "LAST ERROR", "PAYLOAD"), rows);
        output
            .out()
            .println(
                page.jobs().size()
                    + " shown, "
                    + page.scanned()
                    + " examined; "
                    + (page.nextCursor() == null
                        ? "no more"
                        : "next page: --cursor " + page.nextCursor()));
        return ExitCodes.OK;
      }
    }
  }

  /** Runs an action on the targets and prints what was done. */
  abstract static class Act implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name")
    String queue;

    @Parameters(index = "1..*", paramLabel = "ID", description = "The jobs' ids (1 to 1000).")
    List<String> ids;

    @Option(
        names = "--all-matching",
        description = "Every job the filter options (--state and the rest) match, instead of ids.")
    boolean allMatching;

    @Mixin JobListOptions filter;

    @Option(
        names = "--expect",
        paramLabel = "N",
        description =
            "With --all-matching: how many jobs you expect the filter to match (see jobs ls);"
                + " another count is refused and nothing is done.")
    Long expect;

    abstract JobsClient.Action action();

    @Override
    public Integer call() {
      boolean byIds = ids != null && !ids.isEmpty();
      if (byIds == allMatching || (allMatching && expect == null)) {
        throw new CliException(
            ExitCodes.USAGE, "give job ids, or --all-matching with filter options and --expect N");
      }
      try (LineupClient client = connection.connect()) {
        JobsClient jobs = client.jobs(Queues.parse(queue));
        JobActionResult result =
            byIds ? jobs.act(action(), ids) : jobs.actOnMatching(action(), filter.filter(), expect);
        print(output, result);
        return ExitCodes.OK;
      }
    }
  }

  static void print(Output output, JobActionResult result) {
    if (output.json) {
      output.json(result);
      return;
    }
    output
        .out()
        .println(result.action() + ": " + result.done() + " of " + result.matched() + " done");
    for (JobActionResult.Skipped skipped : result.skipped()) {
      output.out().println("skipped " + skipped.id() + " (" + skipped.reason() + ")");
    }
    output.out().flush();
  }

  @Command(
      name = "run-now",
      mixinStandardHelpOptions = true,
      description = "Delayed jobs join the ready line now, keeping their priority (scope manage).")
  static final class RunNow extends Act {
    @Override
    JobsClient.Action action() {
      return JobsClient.Action.RUN_NOW;
    }
  }

  @Command(
      name = "respawn",
      mixinStandardHelpOptions = true,
      description = "Dead jobs go back to the line, attempts reset (scope manage).")
  static final class Respawn extends Act {
    @Override
    JobsClient.Action action() {
      return JobsClient.Action.RESPAWN;
    }
  }

  @Command(
      name = "delete",
      mixinStandardHelpOptions = true,
      description =
          "Jobs in any state are removed with their records (scope publish or manage; by filter,"
              + " manage).")
  static final class Delete extends Act {
    @Override
    JobsClient.Action action() {
      return JobsClient.Action.DELETE;
    }
  }
}
