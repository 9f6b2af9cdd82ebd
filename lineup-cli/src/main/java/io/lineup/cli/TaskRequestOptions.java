package io.lineup.cli;

import io.lineup.client.NewTask;
import java.util.List;
import java.util.Locale;

/**
 * The request of a task as the command line's options give it ({@code lineup tasks submit}, {@code
 * lineup schedules add --endpoint}): one reading of the method, headers, body and priority for
 * both.
 */
final class TaskRequestOptions {
  private TaskRequestOptions() {}

  /**
   * A task to {@code path} with these options.
   *
   * @param method the HTTP method, any case, or null for the endpoint's default
   * @param headers {@code NAME=VALUE} each
   * @param body the body, JSON unless {@code text}, or null for none
   * @param bodyName how the body is named in a refusal ({@code BODY}, {@code --body})
   * @param priority the task's priority, or null for the default
   * @throws CliException (usage) for a header without {@code =} or a body that is not JSON
   */
  static NewTask of(
      String path,
      String method,
      List<String> headers,
      String body,
      boolean text,
      String bodyName,
      Integer priority) {
    NewTask task = NewTask.to(path);
    if (method != null) {
      task.method(method.toUpperCase(Locale.ROOT));
    }
    for (String header : headers) {
      int eq = header.indexOf('=');
      if (eq <= 0) {
        throw new CliException(ExitCodes.USAGE, "--header takes NAME=VALUE; got '" + header + "'");
      }
      task.header(header.substring(0, eq), header.substring(eq + 1));
    }
    if (body != null) {
      if (text) {
        task.textBody(body);
      } else {
        try {
          task.jsonBody(body);
        } catch (IllegalArgumentException e) {
          throw new CliException(
              ExitCodes.USAGE, bodyName + " is not JSON (use --text for text): " + e.getMessage());
        }
      }
    }
    if (priority != null) {
      task.priority(priority);
    }
    return task;
  }
}
