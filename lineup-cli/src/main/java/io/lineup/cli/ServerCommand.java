package io.lineup.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Unmatched;

/** {@code lineup server}: runs the Lineup server in this process, with the server's own flags. */
@Command(
    name = "server",
    description = {
      "Run a Lineup server here until Ctrl-C or SIGTERM.",
      "Without LINEUP_REDIS_URL it runs an embedded Redis with its data under ./lineup-data.",
      "Its flags and variables are the server's: lineup server --help lists them"
          + " (e.g. --port=7701, --redis-url=redis://host:6379)."
    })
final class ServerCommand implements Runnable {
  @Parameters(paramLabel = "FLAG", arity = "0..*", description = "Server flags, passed on.")
  List<String> flags = new ArrayList<>();

  @Unmatched List<String> unmatched = new ArrayList<>();

  @Override
  public void run() {
    List<String> all = new ArrayList<>(flags);
    all.addAll(unmatched);
    runServer(all.toArray(String[]::new));
  }

  /** Starts the server; it runs until the process is stopped. */
  static void runServer(String[] flags) {
    io.lineup.server.Main.main(flags);
  }
}
