package io.lineup.cli;

import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code lineup completion}: prints a bash (and zsh) completion script. */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    description = {
      "Print a bash and zsh completion script.",
      "Load it with:",
      "  source <(lineup completion)",
      "or save it as /etc/bash_completion.d/lineup."
    })
final class CompletionCommand implements Runnable {
  @Override
  public void run() {
    CommandLine line = LineupCli.commandLine();
    System.out.print(AutoComplete.bash("lineup", line));
    System.out.flush();
  }
}
