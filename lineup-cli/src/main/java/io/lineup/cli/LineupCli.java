package io.lineup.cli;

import io.lineup.client.LineupClientException;
import java.io.PrintWriter;
import java.util.Arrays;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code lineup} command: runs a server, or talks to one over HTTP. Every command takes {@code
 * --url} and {@code --token} (or {@code LINEUP_URL} and {@code LINEUP_TOKEN}), {@code --json} for
 * scripts and {@code --help}. Exit codes are listed in {@link ExitCodes}.
 */
@Command(
    name = "lineup",
    mixinStandardHelpOptions = true,
    versionProvider = LineupCli.Version.class,
    description = "Lineup, a Redis-backed job queue: run a server, or work with one over HTTP.",
    footer = {
      "",
      "Server and token: --url and --token, or LINEUP_URL (default http://127.0.0.1:7700) and"
          + " LINEUP_TOKEN (default: the admin token in ./lineup-data/admin-token when there is one).",
      "Exit codes: 0 done, 1 unexpected error, 2 bad arguments or input, 3 server unreachable,"
          + " 4 token refused, 5 not found, 6 conflict, 7 server busy or unavailable,"
          + " 8 some job commands failed (consume --exec), 9 not admitted within the wait"
          + " (rooms join --wait)."
    },
    subcommands = {
      ServerCommand.class,
      PublishCommand.class,
      ConsumeCommand.class,
      JobsCommand.class,
      QueuesCommand.class,
      WatchCommand.class,
      DeadCommand.class,
      ImportCommand.class,
      TokensCommand.class,
      NamespacesCommand.class,
      TasksCommand.class,
      RoomsCommand.class,
      SchedulesCommand.class,
      KeysCommand.class,
      CompletionCommand.class
    })
public final class LineupCli implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private final CliContext context;

  private LineupCli(CliContext context) {
    this.context = context;
  }

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("server")) {
      // The server keeps running after main returns; its shutdown hook stops it.
      ServerCommand.runServer(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    System.exit(run(CliContext.system(), args));
  }

  /**
   * Runs the command line with this environment, folder and standard streams, and answers its exit
   * code ({@link ExitCodes}). It never exits the JVM.
   */
  static int run(CliContext context, String... args) {
    CommandLine line = commandLine(context);
    return line.execute(args);
  }

  /** The command tree on the process's environment and streams, with its error handling. */
  static CommandLine commandLine() {
    return commandLine(CliContext.system());
  }

  /** The command tree on this context, with its error handling. */
  static CommandLine commandLine(CliContext context) {
    CommandLine line = new CommandLine(new LineupCli(context));
    line.setOut(new PrintWriter(context.out(), true, context.out().charset()));
    line.setErr(new PrintWriter(context.err(), true, context.err().charset()));
    line.setExecutionExceptionHandler(LineupCli::onError);
    line.setParameterExceptionHandler(LineupCli::onBadArguments);
    return line;
  }

  /** The context of the run a command belongs to. */
  static CliContext contextOf(CommandLine.Model.CommandSpec command) {
    return ((LineupCli) command.root().userObject()).context;
  }

  @Override
  public void run() {
    spec.commandLine().usage(context.out());
  }

  private static int onBadArguments(CommandLine.ParameterException e, String[] args) {
    CommandLine line = e.getCommandLine();
    PrintWriter err = line.getErr();
    err.println("lineup: " + e.getMessage());
    err.println("Try '" + line.getCommandSpec().qualifiedName() + " --help' for its usage.");
    err.flush();
    return ExitCodes.USAGE;
  }

  private static int onError(Exception e, CommandLine line, CommandLine.ParseResult parsed) {
    PrintWriter err = line.getErr();
    err.println("lineup: " + ExitCodes.describe(e));
    err.flush();
    if (e instanceof LineupClientException client) {
      return ExitCodes.of(client);
    }
    if (e instanceof CliException cli) {
      return cli.exitCode();
    }
    return ExitCodes.ERROR;
  }

  /** The version from the jar's manifest, or "development". */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = LineupCli.class.getPackage().getImplementationVersion();
      return new String[] {"lineup " + (version == null ? "(development build)" : version)};
    }
  }
}
