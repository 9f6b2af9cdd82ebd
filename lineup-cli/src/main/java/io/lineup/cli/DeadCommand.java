package io.lineup.cli;

import io.lineup.api.resource.DeadJob;
import io.lineup.api.resource.DeadPage;
import io.lineup.client.LineupClient;
import io.lineup.client.QueueName;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lineup dead list|respawn|purge}. */
@Command(
    name = "dead",
    mixinStandardHelpOptions = true,
    description = "A queue's dead letters: jobs out of attempts.",
    subcommands = {DeadCommand.ListDead.class, DeadCommand.Respawn.class, DeadCommand.Purge.class})
final class DeadCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "name a command: list, respawn or purge");
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "Dead letters, oldest death first.")
  static final class ListDead implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name")
    String queue;

    @Option(names = "--offset", description = "Skip this many (default 0).")
    long offset;

    @Option(names = "--count", description = "At most this many, 1 to 1000 (default 100).")
    int count = 100;

    @Override
    public Integer call() {
      try (LineupClient client = connection.connect()) {
        DeadPage page = client.deadLetters(Queues.parse(queue), offset, count);
        if (output.json) {
          output.json(page);
          return ExitCodes.OK;
        }
        List<List<String>> rows = new ArrayList<>();
        for (DeadJob job : page.jobs()) {
          rows.add(
              List.of(
                  job.id(),
                  Output.time(job.diedAt()),
                  Integer.toString(job.attempts()),
                  job.lastError() == null ? "-" : job.lastError(),
                  Output.bytes(job.payloadBytes())));
        }
        output.table(List.of("ID", "DIED", "ATTEMPTS", "LAST ERROR", "PAYLOAD"), rows);
        output.out().println(page.total() + " dead in all");
        return ExitCodes.OK;
      }
    }
  }

  @Command(
      name = "respawn",
      mixinStandardHelpOptions = true,
      description = "Put dead jobs back in line at attempt 1: by id, the oldest --count, or --all.")
  static final class Respawn implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name")
    String queue;

    @ArgGroup(multiplicity = "1")
    Which which;

    static final class Which {
      @Option(names = "--id", description = "This job (repeat for several).")
      List<String> ids;

      @Option(names = "--count", description = "The oldest this many.")
      Long count;

      @Option(names = "--all", description = "Every dead job.")
      boolean all;
    }

    @Override
    public Integer call() {
      QueueName name = Queues.parse(queue);
      try (LineupClient client = connection.connect()) {
        long respawned;
        if (which.ids != null) {
          respawned = client.respawn(name, which.ids);
        } else if (which.count != null) {
          respawned = client.respawnOldest(name, which.count);
        } else {
          respawned = client.respawnAll(name);
        }
        if (output.json) {
          output.json(Output.MAPPER.createObjectNode().put("respawned", respawned));
        } else {
          output.out().println("respawned " + respawned);
        }
        return ExitCodes.OK;
      }
    }
  }

  @Command(
      name = "purge",
      mixinStandardHelpOptions = true,
      description = "Delete every dead letter of the queue.")
  static final class Purge implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name")
    String queue;

    @Override
    public Integer call() {
      try (LineupClient client = connection.connect()) {
        long purged = client.purgeDead(Queues.parse(queue));
        if (output.json) {
          output.json(Output.MAPPER.createObjectNode().put("purged", purged));
        } else {
          output.out().println("purged " + purged);
        }
        return ExitCodes.OK;
      }
    }
  }
}
