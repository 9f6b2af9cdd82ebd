package io.lineup.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.resource.Task;
import io.lineup.client.EndpointName;
import io.lineup.client.LineupClient;
import io.lineup.client.NewTask;
import io.lineup.client.TaskCancelResult;
import io.lineup.client.TaskSubmission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lineup tasks submit|get|cancel}: API dispatch tasks. */
@Command(
    name = "tasks",
    mixinStandardHelpOptions = true,
    description = "Submit, read or cancel an API dispatch task.",
    subcommands = {TasksCommand.Submit.class, TasksCommand.Get.class, TasksCommand.Cancel.class})
final class TasksCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "name a command: submit, get or cancel");
  }

  static EndpointName endpoint(String text) {
    try {
      return EndpointName.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCodes.USAGE, e.getMessage());
    }
  }

  /** Prints a task as label lines, or as the API's JSON. */
  static void print(Output output, Task task, Boolean created) {
    if (output.json) {
      ObjectNode node = Output.MAPPER.createObjectNode();
      if (created != null) {
        node.put("created", created);
      }
      node.setAll((ObjectNode) Output.MAPPER.valueToTree(task));
      output.json(node);
      return;
    }
    List<String[]> lines = new ArrayList<>();
    if (created != null) {
      lines.add(new String[] {"created", created ? "yes" : "no (same idempotency key)"});
    }
    lines.add(new String[] {"endpoint", task.endpoint()});
    lines.add(new String[] {"id", task.id()});
    lines.add(new String[] {"status", task.status().name()});
    lines.add(
        new String[] {"position", task.position() < 0 ? "-" : Long.toString(task.position())});
    lines.add(new String[] {"eta", Output.millis(task.etaMs())});
    lines.add(new String[] {"priority", String.valueOf(task.priority())});
    lines.add(new String[] {"key", task.key() == null ? "-" : task.key()});
    lines.add(new String[] {"request", task.method() + " " + task.path()});
    lines.add(new String[] {"attempts", task.attempts().size() + " of " + task.maxAttempts()});
    lines.add(new String[] {"finished", Output.time(task.finishedAt())});
    lines.add(
        new String[] {
          "response",
          task.response() == null
              ? "-"
              : task.response().status() + " " + Output.bytes(task.response().bodyBytes())
        });
    lines.add(new String[] {"error", task.error() == null ? "-" : task.error()});
    output.fields(lines);
  }

  @Command(
      name = "submit",
      mixinStandardHelpOptions = true,
      description = "Hand Lineup a request to send to an endpoint at its rate and concurrency.")
  static final class Submit implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "ENDPOINT", description = "namespace/endpoint")
    String endpoint;

    @Parameters(
        index = "1",
        paramLabel = "PATH",
        description = "Path and query under the endpoint's base URL, e.g. /render?size=1024")
    String path;

    @Parameters(
        index = "2",
        arity = "0..1",
        paramLabel = "BODY",
        description = "The request body: JSON (or text with --text); none when absent")
    String body;

    @Option(names = "--method", description = "HTTP method (default: the endpoint's, POST)")
    String method;

    @Option(names = "--header", paramLabel = "NAME=VALUE", description = "A request header")
    List<String> headers = new ArrayList<>();

    @Option(names = "--text", description = "Send BODY as text, not JSON")
    boolean text;

    @Option(names = "--priority", description = "-255 to 255, at most the token's maximum")
    Integer priority;

    @Option(names = "--delay", paramLabel = "DURATION", description = "Due after this delay")
    String delay;

    @Option(
        names = "--start-by",
        paramLabel = "TIME",
        description =
            "Latest start: an RFC 3339 time or a duration from now (30s); refused when the"
                + " endpoint's ETA cannot meet it")
    String startBy;

    @Option(
        names = "--finish-by",
        paramLabel = "TIME",
        description =
            "Latest end: an RFC 3339 time or a duration from now (5m); refused when the"
                + " endpoint's ETA plus its expected service time cannot meet it")
    String finishBy;

    @Option(names = "--idempotency-key", description = "A repeat answers the first task")
    String idempotencyKey;

    @Option(names = "--callback-url", description = "Called when the task ends")
    String callbackUrl;

    @Option(
        names = "--key",
        paramLabel = "KEY",
        description =
            "Fairness key: the customer the task is sent for; an endpoint with fairness enabled"
                + " serves its keys in turn")
    String key;

    @Option(
        names = "--wait",
        paramLabel = "DURATION",
        description = "Wait up to this (at most 300s) for the task's end and print it then")
    String wait;

    @Override
    public Integer call() {
      EndpointName name = endpoint(endpoint);
      NewTask task = TaskRequestOptions.of(path, method, headers, body, text, "BODY", priority);
      if (delay != null) {
        task.delay(Durations.parse("--delay", delay));
      }
      java.time.Instant now = java.time.Instant.now();
      if (startBy != null) {
        task.startBy(Durations.deadline("--start-by", startBy, now));
      }
      if (finishBy != null) {
        task.finishBy(Durations.deadline("--finish-by", finishBy, now));
      }
      if (idempotencyKey != null) {
        task.idempotencyKey(idempotencyKey);
      }
      if (callbackUrl != null) {
        task.callbackUrl(callbackUrl);
      }
      if (key != null) {
        task.key(key);
      }
      Duration waitFor = wait == null ? null : Durations.parse("--wait", wait);
      try (LineupClient client = connection.connect()) {
        TaskSubmission submitted = client.dispatch().submit(name, task);
        Task shown = submitted.task();
        if (waitFor != null) {
          shown = client.dispatch().task(name, shown.id(), waitFor);
        }
        print(output, shown, submitted.created());
        return ExitCodes.OK;
      }
    }
  }

  @Command(
      name = "get",
      mixinStandardHelpOptions = true,
      description = "A task's status, position, ETA, attempts and, once it ended, the response.")
  static final class Get implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "ENDPOINT", description = "namespace/endpoint")
    String endpoint;

    @Parameters(index = "1", paramLabel = "ID", description = "The task's id")
    String id;

    @Option(
        names = "--wait",
        paramLabel = "DURATION",
        description = "Wait up to this (at most 300s) for the task's end")
    String wait;

    @Override
    public Integer call() {
      EndpointName name = endpoint(endpoint);
      try (LineupClient client = connection.connect()) {
        Task task =
            wait == null
                ? client.dispatch().task(name, id)
                : client.dispatch().task(name, id, Durations.parse("--wait", wait));
        print(output, task, null);
        return ExitCodes.OK;
      }
    }
  }

  @Command(
      name = "cancel",
      mixinStandardHelpOptions = true,
      description = "Cancel a task: a queued one is never sent, a running one is aborted.")
  static final class Cancel implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "ENDPOINT", description = "namespace/endpoint")
    String endpoint;

    @Parameters(index = "1", paramLabel = "ID", description = "The task's id")
    String id;

    @Override
    public Integer call() {
      EndpointName name = endpoint(endpoint);
      try (LineupClient client = connection.connect()) {
        TaskCancelResult result = client.dispatch().cancel(name, id);
        if (output.json) {
          ObjectNode node = Output.MAPPER.createObjectNode();
          node.put("id", result.id());
          node.put("status", "cancelled");
          node.put("previous_status", result.previousStatus().name().toLowerCase(Locale.ROOT));
          output.json(node);
        } else {
          output
              .out()
              .println("cancelled " + result.id() + " (it was " + result.previousStatus() + ")");
        }
        return ExitCodes.OK;
      }
    }
  }
}
