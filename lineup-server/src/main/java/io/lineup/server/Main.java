package io.lineup.server;

import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a Lineup server from environment variables and flags until SIGTERM or Ctrl-C, then shuts
 * down gracefully. Exit codes: 0 after a shutdown, 2 for a bad setting, 1 when start-up failed.
 */
public final class Main {
  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  private Main() {}

  public static void main(String[] args) {
    if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
      System.out.println(usage());
      return;
    }
    ServerSettings settings;
    try {
      settings = ServerSettings.parse(System.getenv(), Arrays.asList(args));
    } catch (InvalidSettingException e) {
      System.err.println("lineup-server: " + e.getMessage());
      System.err.println(usage());
      System.exit(2);
      return;
    }
    LineupServer server;
    try {
      server = LineupServer.start(settings);
    } catch (RuntimeException | Error e) {
      LOG.error("Lineup could not start: {}", e.getMessage(), e);
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "lineup-shutdown"));
  }

  private static String usage() {
    StringBuilder text =
        new StringBuilder(
            "Usage: lineup-server [--flag=value ...]\nSettings (flag, variable, default):\n");
    for (ServerSettings.Setting setting : ServerSettings.Setting.values()) {
      text.append(
          String.format(
              "  %-20s %-26s %s%n",
              setting.flag(),
              setting.variable(),
              switch (setting) {
                case REDIS_URL -> "none: an embedded Redis under the data folder";
                case ADMIN_TOKEN -> "generated and kept in the data folder";
                default -> setting.defaultValue();
              }));
    }
    text.append("Every setting, route and limit: docs/server.md");
    return text.toString();
  }
}
