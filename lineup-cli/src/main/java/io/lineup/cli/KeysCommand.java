package io.lineup.cli;

import io.lineup.api.resource.FairKey;
import io.lineup.api.resource.FairKeyCounts;
import io.lineup.client.KeySettings;
import io.lineup.client.KeysClient;
import io.lineup.client.LineupClient;
import io.lineup.client.QueueName;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lineup keys ls|show|set|pause|resume|drop}: the fairness keys of a fair queue. */
@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    description = {
      "The fairness keys of a fair queue (queue setting fair): the keys with most"
          + " jobs, one key's settings and counts, its own weight and limits, pausing it, and"
          + " deleting its waiting jobs.",
      "Example: lineup keys set shop/emails acme --weight 3 --max-waiting 1000",
      "Example: lineup keys ls shop/emails --by leased --limit 5"
    },
    subcommands = {
      KeysCommand.Ls.class,
      KeysCommand.Show.class,
      KeysCommand.Set.class,
      KeysCommand.Pause.class,
      KeysCommand.Resume.class,
      KeysCommand.Drop.class
    })
final class KeysCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "name a command: ls, show, set, pause, resume or drop");
  }

  static void print(Output output, FairKey k) {
    if (output.json) {
      output.json(k);
      return;
    }
    List<String[]> lines = new ArrayList<>();
    lines.add(new String[] {"key", k.key()});
    lines.add(new String[] {"state", k.paused() ? "paused" : "active"});
    lines.add(new String[] {"waiting", Long.toString(k.waiting())});
    lines.add(new String[] {"leased", Long.toString(k.leased())});
    lines.add(new String[] {"parked", Long.toString(k.parked())});
    lines.add(setting("weight", k.own().weight(), k.effective().weight()));
    lines.add(setting("concurrency", k.own().concurrency(), k.effective().concurrency()));
    lines.add(setting("rate", k.own().rate(), k.effective().rate()));
    lines.add(setting("rate period", k.own().ratePeriodMs(), k.effective().ratePeriodMs()));
    lines.add(setting("max waiting", k.own().maxWaiting(), k.effective().maxWaiting()));
    output.fields(lines);
  }

  /** One setting: its value, and whether it is the key's own or the queue's. */
  private static String[] setting(String name, Object own, Object effective) {
    String unit = name.equals("rate period") ? " ms" : "";
    return new String[] {name, effective + unit + (own == null ? " (queue's)" : " (own)")};
  }

  /** The arguments that name a queue and one of its keys. */
  static final class Target {
    @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name of a fair queue")
    String queue;

    @Parameters(
        index = "1",
        paramLabel = "KEY",
        description = "The fairness key: 1-128 characters of letters, digits and - _ . : @ / + =")
    String key;

    QueueName queue() {
      return Queues.parse(queue);
    }
  }

  @Command(
      name = "ls",
      mixinStandardHelpOptions = true,
      description = "A table of the keys with most jobs waiting (or with --by leased, leased).")
  static final class Ls implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name of a fair queue")
    String queue;

    @Option(
        names = "--by",
        paramLabel = "waiting|leased",
        description = "Rank keys by (default waiting).")
    String by = "waiting";

    @Option(names = "--limit", description = "Most keys, 1 to 1000 (default 20).")
    int limit = 20;

    @Override
    public Integer call() {
      QueueName name = Queues.parse(queue);
      KeysClient.By rank;
      try {
        rank = KeysClient.By.valueOf(by.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CliException(ExitCodes.USAGE, "--by: waiting or leased, got '" + by + "'");
      }
      if (limit < 1 || limit > KeysClient.MAX_TOP) {
        throw new CliException(
            ExitCodes.USAGE, "--limit: 1 to " + KeysClient.MAX_TOP + ", got " + limit);
      }
      try (LineupClient client = connection.connect()) {
        FairKeyCounts counts = client.keys().top(name, rank, limit);
        if (output.json) {
          output.json(counts);
          return ExitCodes.OK;
        }
        List<List<String>> rows = new ArrayList<>();
        for (FairKeyCounts.Count c : counts.keys()) {
          rows.add(List.of(c.key(), Long.toString(c.count())));
        }
        output.table(List.of("KEY", counts.by().toUpperCase(Locale.ROOT)), rows);
        output
            .out()
            .println(
                counts.keysWaiting()
                    + " keys with jobs waiting, "
                    + counts.keysLeased()
                    + " with jobs leased");
        output.out().flush();
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "A key's counts and settings (its own, or the queue's).")
  static final class Show implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;
    @Mixin Target target;

    @Override
    public Integer call() {
      QueueName queue = target.queue();
      try (LineupClient client = connection.connect()) {
        print(output, client.keys().get(queue, target.key));
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "set",
      mixinStandardHelpOptions = true,
      description =
          "Set all of a key's own settings at once: an option left out takes the queue's"
              + " key_* setting (weight: 1); the key is resumed.")
  static final class Set implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;
    @Mixin Target target;

    @Option(names = "--weight", description = "Its share of each turn, 1 to 100.")
    Integer weight;

    @Option(names = "--concurrency", description = "Most jobs leased at once; 0 = no limit.")
    Integer concurrency;

    @Option(names = "--rate", description = "Most leases per rate period; 0 = no limit.")
    Integer rate;

    @Option(
        names = "--rate-period",
        paramLabel = "DURATION",
        description = "The period of --rate, e.g. 1s or 1m (default the queue's).")
    String ratePeriod;

    @Option(
        names = "--max-waiting",
        description = "Most jobs waiting; a publish past it is refused; 0 = no limit.")
    Integer maxWaiting;

    @Override
    public Integer call() {
      QueueName queue = target.queue();
      KeySettings settings = KeySettings.queueDefaults();
      if (weight != null) {
        settings.weight(weight);
      }
      if (concurrency != null) {
        settings.concurrency(concurrency);
      }
      if (ratePeriod != null && rate == null) {
        throw new CliException(ExitCodes.USAGE, "--rate-period goes with --rate");
      }
      if (rate != null) {
        settings.rate(
            rate, ratePeriod == null ? null : Durations.parse("--rate-period", ratePeriod));
      }
      if (maxWaiting != null) {
        settings.maxWaiting(maxWaiting);
      }
      try (LineupClient client = connection.connect()) {
        print(output, client.keys().set(queue, target.key, settings));
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "pause",
      mixinStandardHelpOptions = true,
      description =
          "Pause a key: its jobs are not leased, other keys' are; publishing to it still works.")
  static final class Pause implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;
    @Mixin Target target;

    @Override
    public Integer call() {
      QueueName queue = target.queue();
      try (LineupClient client = connection.connect()) {
        print(output, client.keys().pause(queue, target.key));
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "resume",
      mixinStandardHelpOptions = true,
      description = "Resume a paused key: its held jobs go back to the line.")
  static final class Resume implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;
    @Mixin Target target;

    @Override
    public Integer call() {
      QueueName queue = target.queue();
      try (LineupClient client = connection.connect()) {
        print(output, client.keys().resume(queue, target.key));
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "drop",
      mixinStandardHelpOptions = true,
      description =
          "Delete a key's waiting jobs (ready, delayed or held by a pause); its leased jobs run"
              + " on.")
  static final class Drop implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;
    @Mixin Target target;

    @Override
    public Integer call() {
      QueueName queue = target.queue();
      long deleted;
      try (LineupClient client = connection.connect()) {
        deleted = client.keys().deleteWaiting(queue, target.key);
      }
      if (output.json) {
        output.json(
            Output.MAPPER.createObjectNode().put("key", target.key).put("deleted", deleted));
      } else {
        output
            .out()
            .println(
                "Deleted "
                    + deleted
                    + " waiting jobs of key "
                    + target.key
                    + " of queue "
                    + queue
                    + ".");
        output.out().flush();
      }
      return ExitCodes.OK;
    }
  }
}
