package io.lineup.cli;

import io.lineup.api.resource.Ticket;
import io.lineup.api.resource.TicketStatus;
import io.lineup.client.LineupClient;
import io.lineup.client.RoomName;
import io.lineup.client.RoomsClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lineup rooms join|ticket}: waiting-room tickets. */
@Command(
    name = "rooms",
    mixinStandardHelpOptions = true,
    description = "Join a waiting room, or read a ticket (its position, ETA or pass).",
    subcommands = {RoomsCommand.Join.class, RoomsCommand.TicketCommand.class})
final class RoomsCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "name a command: join or ticket");
  }

  static RoomName room(String text) {
    try {
      return RoomName.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCodes.USAGE, e.getMessage());
    }
  }

  static void print(Output output, Ticket t) {
    if (output.json) {
      output.json(t, Ticket.fieldsOf(t.status()));
      return;
    }
    List<String[]> lines = new ArrayList<>();
    lines.add(new String[] {"room", t.room()});
    lines.add(new String[] {"ticket", t.ticket()});
    lines.add(new String[] {"status", t.status().name()});
    lines.add(new String[] {"position", t.position() == null ? "-" : Long.toString(t.position())});
    lines.add(new String[] {"eta", Output.millis(t.etaMs())});
    lines.add(new String[] {"priority", String.valueOf(t.priority())});
    if (t.pass() != null) {
      lines.add(new String[] {"pass", t.pass()});
      lines.add(new String[] {"pass expires", Output.time(t.passExpiresAt())});
    }
    if (t.reason() != null) {
      lines.add(new String[] {"reason", t.reason()});
    }
    output.fields(lines);
  }

  @Command(
      name = "join",
      mixinStandardHelpOptions = true,
      description = "Join a room's line; with --wait, poll until admitted and print the pass.")
  static final class Join implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "ROOM", description = "namespace/room")
    String room;

    @Option(names = "--priority", description = "At most the token's maximum priority")
    Integer priority;

    @Option(names = "--grant", description = "A single-use grant made by the business backend")
    String grant;

    @Option(names = "--subject", description = "The subject the grant names")
    String subject;

    @Option(
        names = "--wait",
        paramLabel = "DURATION",
        description =
            "Poll (as often as the server says) until admitted, at most this long;"
                + " exit code 9 when not admitted in time")
    String wait;

    @Override
    public Integer call() throws InterruptedException {
      RoomName name = room(room);
      if (grant != null && priority != null) {
        throw new CliException(ExitCodes.USAGE, "--grant and --priority exclude each other");
      }
      Duration waitFor = wait == null ? null : Durations.parse("--wait", wait);
      try (LineupClient client = connection.connect()) {
        Ticket ticket =
            grant != null
                ? client.rooms().joinWithGrant(name, grant, subject)
                : priority != null
                    ? client.rooms().join(name, priority)
                    : client.rooms().join(name);
        if (waitFor != null) {
          long deadline = System.nanoTime() + waitFor.toNanos();
          while (ticket.status() == TicketStatus.WAITING
              || ticket.status() == TicketStatus.PRE_QUEUE) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
              print(output, ticket);
              return ExitCodes.NOT_ADMITTED;
            }
            // A long poll: the answer comes as soon as the ticket moves.
            long poll = Math.min(left, RoomsClient.MAX_TICKET_WAIT.toMillis());
            ticket = client.rooms().ticket(name, ticket.ticket(), Duration.ofMillis(poll));
          }
        }
        print(output, ticket);
        return waitFor != null && ticket.status() != TicketStatus.ADMITTED
            ? ExitCodes.NOT_ADMITTED
            : ExitCodes.OK;
      }
    }
  }

  @Command(
      name = "ticket",
      mixinStandardHelpOptions = true,
      description = "A ticket's status, position and ETA, or its pass once admitted (a poll).")
  static final class TicketCommand implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "ROOM", description = "namespace/room")
    String room;

    @Parameters(index = "1", paramLabel = "TICKET", description = "The ticket id")
    String ticket;

    @Option(
        names = "--wait",
        paramLabel = "DURATION",
        description =
            "A long poll: answer as soon as the ticket's status, position or ETA changes, at"
                + " most this long (0 to 30s)")
    String wait;

    @Override
    public Integer call() {
      RoomName name = room(room);
      Duration waitFor = wait == null ? null : Durations.parse("--wait", wait);
      if (waitFor != null && waitFor.compareTo(RoomsClient.MAX_TICKET_WAIT) > 0) {
        throw new CliException(ExitCodes.USAGE, "--wait is at most 30s, not " + wait);
      }
      try (LineupClient client = connection.connect()) {
        print(
            output,
            waitFor == null
                ? client.rooms().ticket(name, ticket)
                : client.rooms().ticket(name, ticket, waitFor));
        return ExitCodes.OK;
      }
    }
  }
}
