package io.lineup.server;

import io.lineup.core.model.RedisUnavailableException;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a Lineup server from environment variables and flags until SIGTERM or Ctrl-C, then shuts
 * down gracefully.
 *
 * <p>Exit codes: 0 after a graceful shutdown (also when it was asked for by SIGTERM or Ctrl-C,
 * where the JVM would otherwise answer 128 + the signal's number, e.g. 143), 1 when start-up failed
 * or the shutdown failed, 2 for a bad setting. A start-up failure the operator can fix (the data
 * folder in use by another server, the port taken, Redis unreachable) is one log line without a
 * stack trace.
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
    } catch (StartupException | RedisUnavailableException e) {
      LOG.error("Lineup could not start: {}", e.getMessage());
      System.exit(1);
      return;
    } catch (RuntimeException | Error e) {
      LOG.error("Lineup could not start: {}", e.getMessage(), e);
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server), "lineup-shutdown"));
  }

  /**
   * Runs in the shutdown hook: closes the server, then ends the JVM with 0 (or 1 when the close
   * failed). Without the halt, a JVM stopped by SIGTERM exits with 143 even after a clean shutdown,
   * which supervisors report as a failure. No other shutdown hook is registered by Lineup.
   */
  private static void stop(LineupServer server) {
    int code = 0;
    try {
      server.close();
    } catch (RuntimeException | Error e) {
      LOG.error("The shutdown failed: {}", e.getMessage(), e);
      code = 1;
    }
    System.out.flush();
    System.err.flush();
    Runtime.getRuntime().halt(code);
  }

  private static String usage() {
    StringBuilder text =
        new StringBuilder(
            "Usage: lineup-server [--flag=value ...]\nSettings (flag, variable, default):\n");
    String row = "  %-31s %-36s %s%n"; // the longest flag and variable, and a space
    for (ServerSetting setting : ServerSetting.values()) {
      text.append(
          String.format(
              row, setting.flag(), setting.variable(), setting.defaultText().replace("`", "")));
    }
    text.append("Settings: docs/operations.md; routes, errors and limits: docs/server.md");
    return text.toString();
  }
}
