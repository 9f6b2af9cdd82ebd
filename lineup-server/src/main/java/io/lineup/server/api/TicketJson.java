package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.model.Eta;
import io.lineup.rooms.AdmittedPass;
import io.lineup.rooms.Departure;
import io.lineup.rooms.Ticket;
import io.lineup.server.http.Json;

/**
 * A ticket's JSON answer ({@code POST .../tickets}, {@code GET .../tickets/{id}}, the event
 * stream's events): the fields of its status, in the order docs/waiting-room.md shows them.
 */
public final class TicketJson {
  private TicketJson() {}

  /** A ticket's answer. */
  public static ObjectNode of(Ticket t) {
    ObjectNode v = Json.object();
    v.put("ticket", t.id());
    v.put("room", t.room().toString());
    if (t.priority() != null) {
      v.put("priority", t.priority());
      v.put("joined_at", t.joinedAt());
    }
    v.put("status", t.status().wireName());
    switch (t.status()) {
      case WAITING -> {
        v.put("position", t.position());
        putEta(v, t.eta());
        v.put("poll_after_ms", t.pollAfterMs());
        v.put("grace_ms", t.graceMs());
      }
      case PRE_QUEUE -> {
        v.putNull("position");
        v.put("opens_at", t.opensAt());
        v.put("poll_after_ms", t.pollAfterMs());
        v.put("grace_ms", t.graceMs());
      }
      case ADMITTED -> {
        AdmittedPass pass = t.pass();
        v.put("pass", pass.token());
        v.put("pass_id", pass.id());
        v.put("admitted_at", pass.admittedAt());
        v.put("pass_expires_at", pass.expiresAt());
        v.put("renewable", pass.renewable());
      }
      case GONE -> v.put("reason", t.reason().wireName());
    }
    return v;
  }

  private static void putEta(ObjectNode v, Eta eta) {
    if (eta == null) {
      v.putNull("eta_ms");
      v.putNull("eta_low_ms");
      v.putNull("eta_high_ms");
    } else {
      v.put("eta_ms", eta.point().toMillis());
      v.put("eta_low_ms", eta.low().toMillis());
      v.put("eta_high_ms", eta.high().toMillis());
    }
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
