package io.lineup.server.api;

import io.javalin.http.Context;
import io.lineup.rooms.Room;
import io.lineup.rooms.Ticket;
import io.lineup.rooms.TicketFollower;
import io.lineup.server.http.DisconnectWatch;
import io.lineup.server.http.Draining;
import io.lineup.server.http.LeaseWaiters;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A ticket's Server-Sent Events ({@code GET .../tickets/{id}/events}): {@code event: ticket} with
 * the ticket's answer (as {@code GET .../tickets/{id}} gives it) each time its status, position or
 * ETA changes, and a last one when it is admitted (with the pass) or gone, after which the stream
 * ends. A stream also ends after {@value TicketFollower#MAX_STREAM_MS} ms (the client reconnects)
 * or when the server shuts down; a comment line keeps an idle connection open through proxies. A
 * client that hangs up ends its stream at once ({@link DisconnectWatch}).
 */
final class TicketEventStream implements TicketFollower.Sink {
  private final OutputStream out;

  private TicketEventStream(OutputStream out) {
    this.out = out;
  }

  /**
   * Streams the ticket's changes on the response until it is admitted or gone.
   *
   * @param first the ticket at the start, sent at once
   * @throws InterruptedException when the request's thread is interrupted
   */
  static void stream(
      Context ctx, Room room, Ticket first, Draining draining, LeaseWaiters followers) {
    var res = ctx.res();
    res.setStatus(200);
    res.setContentType("text/event-stream");
    res.setCharacterEncoding("UTF-8");
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Accel-Buffering", "no");
    // The watch interrupts this thread as soon as the client hangs up, which ends the following
    // (and unregisters it from the room's watcher) at once rather than at the next write.
    try (DisconnectWatch watch =
        DisconnectWatch.start(ctx, TicketFollower.KEEP_ALIVE_MS, followers)) {
      TicketEventStream sink = new TicketEventStream(res.getOutputStream());
      room.follow(first.id(), first, draining::isOn, sink);
    } catch (IOException | InterruptedException e) {
      // The client went away: nothing to answer.
    }
  }

  @Override
  public void send(Ticket ticket) throws IOException {
    write(
        "event: ticket\ndata: "
            + new String(TicketJson.write(ticket), StandardCharsets.UTF_8)
            + "\n\n");
  }

  @Override
  public void keepAlive() throws IOException {
    write(": keep-alive\n\n");
  }

  private void write(String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
