package io.lineup.cli;

import io.lineup.client.LineupClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The options every command that talks to a server takes: where, with which token, how long. */
final class Connection {
  /** The server when neither --url nor LINEUP_URL says otherwise. */
  static final String DEFAULT_URL = "http://127.0.0.1:7700";

  /** Where {@code lineup server} keeps the admin token it generated, relative to the folder. */
  static final Path LOCAL_ADMIN_TOKEN = Path.of("lineup-data", "admin-token");

  @Option(
      names = "--url",
      paramLabel = "URL",
      description = "The server (default: LINEUP_URL, else " + DEFAULT_URL + ").")
  String url;

  @Option(
      names = "--token",
      paramLabel = "TOKEN",
      description =
          "The admin or a namespace token (default: LINEUP_TOKEN, else ./lineup-data/admin-token"
              + " when it exists).")
  String token;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description = "Longest wait for one answer, e.g. 10s (default 30s).")
  String timeout;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  LineupClient connect() {
    CliContext context = LineupCli.contextOf(command);
    String base = firstOf(url, context.env("LINEUP_URL"), DEFAULT_URL);
    String secret =
        firstOf(
            token,
            context.env("LINEUP_TOKEN"),
            localAdminToken(context.resolve(LOCAL_ADMIN_TOKEN)));
    LineupClient.Builder builder;
    try {
      builder = LineupClient.builder(base).token(secret);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCodes.USAGE, e.getMessage());
    }
    if (timeout != null) {
      builder.requestTimeout(Durations.parse("--timeout", timeout));
    }
    builder.connectTimeout(Duration.ofSeconds(5));
    return builder.build();
  }

  private static String localAdminToken(Path file) {
    try {
      return Files.isReadable(file) ? Files.readString(file).strip() : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static String firstOf(String... values) {
    for (String value : values) {
      if (value != null && !value.isBlank()) {
        return value;
      }
    }
    return null;
  }
}
