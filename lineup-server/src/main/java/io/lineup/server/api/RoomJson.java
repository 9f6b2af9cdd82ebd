package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.resource.Room;
import io.lineup.api.resource.VerifiedPass;
import io.lineup.pass.Pass;
import io.lineup.rooms.Grant;
import io.lineup.rooms.GrantLogEntry;
import io.lineup.rooms.KeyRotation;
import io.lineup.rooms.RoomInfo;
import io.lineup.rooms.RoomKey;
import io.lineup.rooms.RoomSpec;
import io.lineup.server.http.Json;
import java.util.List;

/**
 * The JSON answers of the room routes but tickets' ({@link TicketJson}): a room's settings and
 * counts, a key rotation, a verified pass, grants and the grant log.
 */
public final class RoomJson {
  private RoomJson() {}

  /** A room's settings and counts ({@link Room}), with where its public keys are published. */
  public static Room info(RoomInfo info) {
    RoomKey key = info.key();
    RoomSpec spec = info.spec();
    return new Room(
        key.namespace(),
        key.name(),
        spec.maxActive(),
        spec.admitPerMinute(),
        spec.passTtlMs(),
        spec.renewable(),
        spec.method().wireName(),
        // 0 is how a spec says it has no event start.
        spec.eventStartAt() == 0 ? null : spec.eventStartAt(),
        spec.graceMs(),
        spec.suspended(),
        info.createdAt(),
        info.updatedAt(),
        info.waiting(),
        info.active(),
        info.preQueue(),
        "/v1/rooms/" + key.namespace() + "/" + key.name() + "/jwks.json");
  }

  /** The signing keys after a rotation. */
  public static ObjectNode rotation(KeyRotation rotation) {
    ObjectNode answer = Json.object();
    answer.put("current_kid", rotation.currentKid());
    ArrayNode kids = answer.putArray("published_kids");
    rotation.publishedKids().forEach(kids::add);
    return answer;
  }

  /** The online check's answer for a valid pass ({@link VerifiedPass}). */
  public static VerifiedPass verified(Pass pass) {
    return new VerifiedPass(
        true,
        pass.room(),
        pass.ticket(),
        pass.id(),
        pass.keyId(),
        pass.issuedAt().toEpochMilli(),
        pass.expiresAt().toEpochMilli());
  }

  /** A grant as made. */
  public static ObjectNode grant(Grant grant) {
    ObjectNode g = Json.object();
    g.put("grant", grant.id());
    g.put("room", grant.room().toString());
    g.put("priority", grant.priority());
    g.put("subject", grant.subject());
    g.put("note", grant.note());
    g.put("created_at", grant.createdAt());
    g.put("expires_at", grant.expiresAt());
    g.put("created_by", grant.createdBy());
    return g;
  }

  /**
   * The grant log: {@code {"grants": [...]}}, each with the ticket and the token that used it (or
   * null).
   */
  public static ObjectNode grantLog(List<GrantLogEntry> entries) {
    ObjectNode answer = Json.object();
    ArrayNode items = answer.putArray("grants");
    for (GrantLogEntry entry : entries) {
      ObjectNode g = grant(entry.grant());
      if (entry.usedByTicket() == null) {
        g.putNull("used_by_ticket");
        g.putNull("used_at");
      } else {
        g.put("used_by_ticket", entry.usedByTicket());
        g.put("used_at", entry.usedAt());
      }
      // The token's public id (as created_by names the maker's), never its secret.
      g.put("used_by_token", entry.usedByToken());
      items.add(g);
    }
    return answer;
  }
}
