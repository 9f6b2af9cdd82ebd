package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.model.Eta;
import io.lineup.rooms.AdmittedPass;
import io.lineup.rooms.Departure;
import io.lineup.rooms.Ticket;
import io.lineup.rooms.TicketStatus;
import io.lineup.server.http.Json;

/**
 * A ticket's JSON answer ({@code POST .../tickets}, {@code GET .../tickets/{id}}, the event
 * stream's events): the fields of its status, in the order docs/waiting-room.md shows them.
 */
public final class TicketJson {
  private TicketJson() {}

  /**
   * A ticket's answer as JSON text: its record written with the view of its status, so it has
   * exactly the fields of that status.
   */
  public static byte[] write(Ticket t) {
    io.lineup.api.resource.Ticket ticket = of(t);
    return Json.write(ticket, io.lineup.api.resource.Ticket.fieldsOf(ticket.status()));
  }

  /** A ticket as the API's record; the fields its status does not have are null. */
  static io.lineup.api.resource.Ticket of(Ticket t) {
    // An admitted ticket answers as a waiting one at the front besides its pass (position 0, ETA
    // 0, poll interval, grace), so a join admitted at once has every field a waiting one has.
    boolean waiting = t.status() == TicketStatus.WAITING || t.status() == TicketStatus.ADMITTED;
    boolean lined = waiting || t.status() == TicketStatus.PRE_QUEUE;
    Eta eta = waiting ? t.eta() : null;
    AdmittedPass pass = t.status() == TicketStatus.ADMITTED ? t.pass() : null;
    return new io.lineup.api.resource.Ticket(
        t.id(),
        t.room().toString(),
        t.priority(),
        t.priority() == null ? null : t.joinedAt(),
        io.lineup.api.resource.TicketStatus.valueOf(t.status().name()),
        waiting ? t.position() : null,
        eta == null ? null : eta.point().toMillis(),
        eta == null ? null : eta.low().toMillis(),
        eta == null ? null : eta.high().toMillis(),
        t.status() == TicketStatus.PRE_QUEUE ? t.opensAt() : null,
        lined ? t.pollAfterMs() : null,
        lined ? t.graceMs() : null,
        pass == null ? null : pass.token(),
        pass == null ? null : pass.id(),
        pass == null ? null : pass.admittedAt(),
        pass == null ? null : pass.expiresAt(),
        pass == null ? null : pass.renewable(),
        t.status() == TicketStatus.GONE ? t.reason().wireName() : null);
  }

  /** A leave's answer: the ticket, where it stood, and that it is gone. */
  public static ObjectNode of(Departure departure) {
    ObjectNode answer = Json.object();
    answer.put("ticket", departure.ticket());
    answer.put("previous_status", departure.previous().wireName());
    answer.put("status", "gone");
    return answer;
  }
}
