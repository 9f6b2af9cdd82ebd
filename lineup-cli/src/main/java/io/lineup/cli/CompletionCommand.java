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
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    CliContext context = LineupCli.contextOf(spec);
    CommandLine line = LineupCli.commandLine(context);
    context.out().print(AutoComplete.bash("lineup", line));
    context.out().flush();
  }
}
