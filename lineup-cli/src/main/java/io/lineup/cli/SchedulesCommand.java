package io.lineup.cli;

import io.lineup.api.resource.Schedule;
import io.lineup.client.EndpointName;
import io.lineup.client.LineupClient;
import io.lineup.client.NewTask;
import io.lineup.client.QueueName;
import io.lineup.client.ScheduleSettings;
import io.lineup.client.SchedulesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code lineup schedules add|ls|pause|resume|rm|next}: a queue's recurring schedules, or with
 * {@code --endpoint} an endpoint's.
 */
@Command(
    name = "schedules",
    mixinStandardHelpOptions = true,
    description = {
      "A queue's recurring schedules: each tick of a cron expression or an interval publishes a"
          + " job, once however many servers run. With --endpoint, an endpoint's: each tick"
          + " submits a task.",
      "Example: lineup schedules add shop/reports nightly --cron '0 0 2 * * *'"
          + " --zone Europe/Paris --payload '{\"report\":\"sales\"}'",
      "Example: lineup schedules add --endpoint shop/images sync --every 5m --path /sync"
          + " --body '{\"full\":true}'"
    },
    subcommands = {
      SchedulesCommand.Add.class,
      SchedulesCommand.Ls.class,
      SchedulesCommand.Pause.class,
      SchedulesCommand.Resume.class,
      SchedulesCommand.Rm.class,
      SchedulesCommand.Next.class
    })
final class SchedulesCommand implements Runnable {
  /** A tick as the table of {@code next} prints it beside local time: RFC 3339, UTC, ms. */
  static final java.time.format.DateTimeFormatter RFC_3339 =
      new java.time.format.DateTimeFormatterBuilder().appendInstant(3).toFormatter(Locale.ROOT);

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "name a command: add, ls, pause, resume, rm or next");
  }

  /** When a schedule ticks, in a few words: its cron expression or its interval. */
  static String when(Schedule s) {
    return s.cron() != null
        ? s.cron()
        : "every " + Output.duration(java.time.Duration.ofMillis(s.everyMs()));
  }

  /** A schedule's time (epoch milliseconds) as the command line prints times; "-" for none. */
  static String time(Long epochMs) {
    return epochMs == null ? "-" : Output.time(Instant.ofEpochMilli(epochMs));
  }

  static void print(Output output, Schedule s) {
    if (output.json) {
      output.json(s);
      return;
    }
    List<String[]> lines = new ArrayList<>();
    lines.add(new String[] {"schedule", s.name()});
    if (s.endpoint() != null) {
      lines.add(new String[] {"endpoint", s.namespace() + "/" + s.endpoint()});
      if (s.task() != null) {
        lines.add(new String[] {"task", s.task().method() + " " + s.task().path()});
      }
    } else {
      lines.add(new String[] {"queue", s.namespace() + "/" + s.queue()});
    }
    lines.add(new String[] {"when", when(s)});
    if (s.zone() != null) {
      lines.add(new String[] {"zone", s.zone()});
    }
    lines.add(new String[] {"state", s.state()});
    lines.add(new String[] {"next", time(s.nextTickAt())});
    lines.add(new String[] {"runs", Long.toString(s.runs())});
    lines.add(new String[] {"last", time(s.lastTickAt())});
    lines.add(new String[] {"missed", s.missed()});
    lines.add(new String[] {"version", Long.toString(s.version())});
    output.fields(lines);
  }

  /**
   * Where schedules live: a queue (its ticks publish jobs) or an endpoint (its ticks submit tasks).
   * Exactly one of the two is set.
   */
  record Owner(QueueName queue, EndpointName endpoint) {
    /**
     * Reads {@code namespace/name} as a queue, or as an endpoint when {@code endpoint} is set.
     *
     * @throws CliException exit 2 when the text is not a valid name
     */
    static Owner parse(String text, boolean endpoint) {
      return endpoint
          ? new Owner(null, TasksCommand.endpoint(text))
          : new Owner(Queues.parse(text), null);
    }

    Schedule upsert(SchedulesClient c, String name, ScheduleSettings settings) {
      return queue != null ? c.upsert(queue, name, settings) : c.upsert(endpoint, name, settings);
    }

    List<Schedule> list(SchedulesClient c) {
      return queue != null ? c.list(queue) : c.list(endpoint);
    }

    Schedule pause(SchedulesClient c, String name) {
      return queue != null ? c.pause(queue, name) : c.pause(endpoint, name);
    }

    Schedule resume(SchedulesClient c, String name) {
      return queue != null ? c.resume(queue, name) : c.resume(endpoint, name);
    }

    void delete(SchedulesClient c, String name) {
      if (queue != null) {
        c.delete(queue, name);
      } else {
        c.delete(endpoint, name);
      }
    }

    List<Instant> next(SchedulesClient c, String name, int count) {
      return queue != null ? c.next(queue, name, count) : c.next(endpoint, name, count);
    }

    @Override
    public String toString() {
      return queue != null ? "queue " + queue : "endpoint " + endpoint;
    }
  }

  /** The option that says the first argument names an endpoint. */
  static final class EndpointFlag {
    @Option(
        names = "--endpoint",
        description =
            "QUEUE names an endpoint (namespace/endpoint): its schedules, whose ticks submit a"
                + " task")
    boolean endpoint;
  }

  /** The options that name a queue (or an endpoint) and a schedule. */
  static final class Target {
    @Parameters(
        index = "0",
        paramLabel = "QUEUE",
        description = "namespace/name of a queue, or of an endpoint with --endpoint")
    String queue;

    @Parameters(index = "1", paramLabel = "NAME", description = "The schedule's name")
    String name;

    @Mixin EndpointFlag flag;

    Owner owner() {
      return Owner.parse(queue, flag.endpoint);
    }
  }

  /** Exactly one of a cron expression and an interval. */
  static final class When {
    @Option(
        names = "--cron",
        paramLabel = "EXPR",
        description = "Six fields: seconds minutes hours day-of-month month day-of-week")
    String cron;

    @Option(
        names = "--every",
        paramLabel = "DURATION",
        description = "An interval instead of --cron, e.g. 30s or 5m")
    String every;
  }

  @Command(
      name = "add",
      mixinStandardHelpOptions = true,
      description = {
        "Create a schedule, or change it in place (its runs and history stay).",
        "The payload is JSON (--payload, or --payload-file, - for standard input); --text sends"
            + " it as text."
      })
  static final class Add implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;
    @Mixin Target target;

    @ArgGroup(exclusive = true, multiplicity = "1")
    When when;

    @Option(names = "--zone", paramLabel = "ZONE", description = "The cron's time zone (UTC)")
    String zone;

    @Option(names = "--payload", paramLabel = "JSON", description = "Each job's payload")
    String payload;

    @Option(
        names = "--payload-file",
        paramLabel = "FILE",
        description = "Read the payload from a file (- for standard input)")
    String payloadFile;

    @Option(names = "--text", description = "Send the payload (--endpoint: the body) as text.")
    boolean text;

    @Option(names = "--priority", description = "-255 to 255, higher first (default 0).")
    Integer priority;

    @Option(names = "--max-attempts", description = "Deliveries before dead letters.")
    Integer maxAttempts;

    @Option(names = "--ttr", paramLabel = "DURATION", description = "Lease length (time-to-run).")
    String ttr;

    @Option(names = "--ttl", paramLabel = "DURATION", description = "Expire when not done by then.")
    String ttl;

    @Option(
        names = "--missed",
        paramLabel = "POLICY",
        description = "Missed ticks: skip (one job for all, the default), catch_up or none")
    String missed;

    @Option(names = "--catch-up-max", description = "Most jobs catch_up makes (default 100).")
    Integer catchUpMax;

    @Option(names = "--start", paramLabel = "TIME", description = "No tick before this time.")
    String start;

    @Option(names = "--end", paramLabel = "TIME", description = "No tick after this time.")
    String end;

    @Option(names = "--max-runs", description = "End after this many jobs.")
    Long maxRuns;

    @Option(
        names = "--jitter",
        paramLabel = "DURATION",
        description = "Each job due a random 0 to this after its tick.")
    String jitter;

    @Option(names = "--paused", description = "Put it paused.")
    boolean paused;

    @Option(
        names = "--path",
        paramLabel = "PATH",
        description =
            "--endpoint: each task's path and query under the endpoint's base URL, e.g. /sync")
    String path;

    @Option(
        names = "--body",
        paramLabel = "BODY",
        description = "--endpoint: each task's body, JSON (or text with --text); none when absent")
    String body;

    @Option(
        names = "--method",
        description = "--endpoint: the HTTP method (default: the endpoint's, POST)")
    String method;

    @Option(
        names = "--header",
        paramLabel = "NAME=VALUE",
        description = "--endpoint: a header of each task's request")
    List<String> headers = new ArrayList<>();

    @Option(
        names = "--callback-url",
        paramLabel = "URL",
        description = "--endpoint: called when each task ends")
    String callbackUrl;

    @Override
    public Integer call() {
      Owner owner = target.owner();
      ScheduleSettings settings;
      if (when.cron != null) {
        settings = ScheduleSettings.cron(when.cron, zone == null ? null : zone(zone));
      } else {
        if (zone != null) {
          throw new CliException(ExitCodes.USAGE, "--zone goes with --cron");
        }
        settings = ScheduleSettings.every(Durations.parse("--every", when.every));
      }
      if (owner.endpoint() != null) {
        settings.task(task());
      } else {
        job(settings);
      }
      if (missed != null) {
        settings.missed(missed(missed));
      }
      if (catchUpMax != null) {
        settings.catchUpMax(catchUpMax);
      }
      if (start != null) {
        settings.startAt(instant("--start", start));
      }
      if (end != null) {
        settings.endAt(instant("--end", end));
      }
      if (maxRuns != null) {
        settings.maxRuns(maxRuns);
      }
      if (jitter != null) {
        settings.jitter(Durations.parse("--jitter", jitter));
      }
      if (paused) {
        settings.paused(true);
      }
      try (LineupClient client = connection.connect()) {
        print(output, owner.upsert(client.schedules(), target.name, settings));
      }
      return ExitCodes.OK;
    }

    /** A queue's schedule: the job of every tick; the task's options are refused. */
    private void job(ScheduleSettings settings) {
      String refused =
          path != null
              ? "--path"
              : body != null
                  ? "--body"
                  : method != null
                      ? "--method"
                      : !headers.isEmpty()
                          ? "--header"
                          : callbackUrl != null ? "--callback-url" : null;
      if (refused != null) {
        throw new CliException(
            ExitCodes.USAGE,
            refused + " is an endpoint's task option: add --endpoint, or give the job's --payload");
      }
      String body = payload();
      if (text) {
        settings.payloadText(body);
      } else {
        try {
          settings.payloadJson(body);
        } catch (IllegalArgumentException e) {
          throw new CliException(
              ExitCodes.USAGE,
              "the payload is not JSON (" + e.getMessage() + "); add --text to send text");
        }
      }
      if (priority != null) {
        settings.priority(priority);
      }
      if (maxAttempts != null) {
        settings.maxAttempts(maxAttempts);
      }
      if (ttr != null) {
        settings.timeToRun(Durations.parse("--ttr", ttr));
      }
      if (ttl != null) {
        settings.ttl(Durations.parse("--ttl", ttl));
      }
    }

    /**
     * An endpoint's schedule: the task of every tick, as {@code lineup tasks submit} takes it; the
     * job's options are refused.
     */
    private NewTask task() {
      String refused =
          payload != null
              ? "--payload"
              : payloadFile != null
                  ? "--payload-file"
                  : maxAttempts != null
                      ? "--max-attempts"
                      : ttr != null ? "--ttr" : ttl != null ? "--ttl" : null;
      if (refused != null) {
        throw new CliException(
            ExitCodes.USAGE,
            refused
                + " is a job's option: an endpoint's schedule submits a task (--path, --body,"
                + " --method, --header, --callback-url); its endpoint's settings say the rest");
      }
      if (path == null) {
        throw new CliException(
            ExitCodes.USAGE, "give each task's --path under the endpoint's base URL, e.g. /sync");
      }
      NewTask task = TaskRequestOptions.of(path, method, headers, body, text, "--body", priority);
      if (callbackUrl != null) {
        task.callbackUrl(callbackUrl);
      }
      return task;
    }

    private String payload() {
      if (payload != null && payloadFile != null) {
        throw new CliException(ExitCodes.USAGE, "give --payload or --payload-file, not both");
      }
      if (payload != null) {
        return payload;
      }
      if (payloadFile == null) {
        throw new CliException(
            ExitCodes.USAGE, "give the jobs' payload: --payload JSON or --payload-file FILE");
      }
      try {
        byte[] bytes =
            payloadFile.equals("-")
                ? output.in().readAllBytes()
                : Files.readAllBytes(
                    LineupCli.contextOf(output.command).resolve(Path.of(payloadFile)));
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8).strip();
      } catch (NoSuchFileException e) {
        throw new CliException(ExitCodes.USAGE, "--payload-file: no file " + payloadFile);
      } catch (IOException e) {
        throw new CliException(
            ExitCodes.USAGE, "--payload-file: cannot read " + payloadFile + ": " + e.getMessage());
      }
    }

    private static ZoneId zone(String text) {
      try {
        return ZoneId.of(text);
      } catch (DateTimeException e) {
        throw new CliException(
            ExitCodes.USAGE, "--zone: '" + text + "' is not a time zone like Europe/Paris or UTC");
      }
    }

    private static ScheduleSettings.Missed missed(String text) {
      try {
        return ScheduleSettings.Missed.valueOf(text.replace('-', '_').toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CliException(
            ExitCodes.USAGE, "--missed: '" + text + "' is not skip, catch_up or none");
      }
    }

    private static Instant instant(String option, String text) {
      try {
        return Instant.parse(text);
      } catch (DateTimeParseException e) {
        throw new CliException(
            ExitCodes.USAGE,
            option + ": '" + text + "' is not an ISO-8601 time like 2030-01-01T09:00:00Z");
      }
    }
  }

  @Command(
      name = "ls",
      mixinStandardHelpOptions = true,
      description =
          "A table of a queue's (or with --endpoint an endpoint's) schedules: when, zone, state,"
              + " next tick, runs.")
  static final class Ls implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;
    @Mixin EndpointFlag flag;

    @Parameters(
        index = "0",
        paramLabel = "QUEUE",
        description = "namespace/name of a queue, or of an endpoint with --endpoint")
    String queue;

    @Override
    public Integer call() {
      Owner owner = Owner.parse(queue, flag.endpoint);
      try (LineupClient client = connection.connect()) {
        List<Schedule> schedules = owner.list(client.schedules());
        if (output.json) {
          output.json(schedules);
          return ExitCodes.OK;
        }
        List<List<String>> rows = new ArrayList<>();
        for (Schedule s : schedules) {
          rows.add(
              List.of(
                  s.name(),
                  when(s),
                  s.zone() == null ? "-" : s.zone(),
                  s.state(),
                  time(s.nextTickAt()),
                  Long.toString(s.runs()),
                  time(s.lastTickAt())));
        }
        output.table(List.of("NAME", "WHEN", "ZONE", "STATE", "NEXT", "RUNS", "LAST"), rows);
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "pause",
      mixinStandardHelpOptions = true,
      description = "Pause a schedule: no job until it is resumed.")
  static final class Pause implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;
    @Mixin Target target;

    @Override
    public Integer call() {
      Owner owner = target.owner();
      try (LineupClient client = connection.connect()) {
        print(output, owner.pause(client.schedules(), target.name));
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "resume",
      mixinStandardHelpOptions = true,
      description = "Resume a schedule: its next job is at its first tick from now.")
  static final class Resume implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;
    @Mixin Target target;

    @Override
    public Integer call() {
      Owner owner = target.owner();
      try (LineupClient client = connection.connect()) {
        print(output, owner.resume(client.schedules(), target.name));
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "rm",
      mixinStandardHelpOptions = true,
      description = "Delete a schedule and its history; the jobs it published stay.")
  static final class Rm implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;
    @Mixin Target target;

    @Override
    public Integer call() {
      Owner owner = target.owner();
      try (LineupClient client = connection.connect()) {
        owner.delete(client.schedules(), target.name);
      }
      if (output.json) {
        output.json(Output.MAPPER.createObjectNode().put("name", target.name).put("deleted", true));
      } else {
        output.out().println("Deleted schedule " + target.name + " of " + owner + ".");
      }
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "next",
      mixinStandardHelpOptions = true,
      description = "A schedule's next ticks, without publishing anything.")
  static final class Next implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;
    @Mixin Target target;

    @Option(
        names = {"-n", "--count"},
        description = "How many ticks, 1 to 100 (default 5).")
    int count = 5;

    @Override
    public Integer call() {
      Owner owner = target.owner();
      if (count < 1 || count > 100) {
        throw new CliException(ExitCodes.USAGE, "--count: 1 to 100, got " + count);
      }
      try (LineupClient client = connection.connect()) {
        List<Instant> ticks = owner.next(client.schedules(), target.name, count);
        if (output.json) {
          var node = Output.MAPPER.createObjectNode().put("name", target.name);
          var list = node.putArray(io.lineup.api.ScheduleFields.TICKS_AT);
          ticks.forEach(t -> list.add(t.toEpochMilli()));
          output.json(node);
        } else {
          ticks.forEach(t -> output.out().println(RFC_3339.format(t) + "  " + Output.time(t)));
          output.out().flush();
        }
      }
      return ExitCodes.OK;
    }
  }
}
