package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

  /** A room's settings and counts, with where its public keys are published. */
  public static ObjectNode info(RoomInfo info) {
    RoomKey key = info.key();
    ObjectNode view = Json.object();
    view.put("namespace", key.namespace());
    view.put("room", key.name());
    putSpec(view, info.spec());
    view.put("created_at", info.createdAt());
    view.put("updated_at", info.updatedAt());
    view.put("waiting", info.waiting());
    view.put("active", info.active());
    view.put("pre_queue", info.preQueue());
    view.put("jwks_url", "/v1/rooms/" + key.namespace() + "/" + key.name() + "/jwks.json");
    return view;
  }

  private static void putSpec(ObjectNode o, RoomSpec spec) {
    o.put("max_active", spec.maxActive());
    o.put("admit_per_minute", spec.admitPerMinute());
    o.put("pass_ttl_ms", spec.passTtlMs());
    o.put("renewable", spec.renewable());
    o.put("queueing_method", spec.method().wireName());
    if (spec.eventStartAt() == 0) {
      o.putNull("event_start_at");
    } else {
      o.put("event_start_at", spec.eventStartAt());
    }
    o.put("grace_ms", spec.graceMs());
    o.put("suspended", spec.suspended());
  }

  /** The signing keys after a rotation. */
  public static ObjectNode rotation(KeyRotation rotation) {
    ObjectNode answer = Json.object();
    answer.put("current_kid", rotation.currentKid());
    ArrayNode kids = answer.putArray("published_kids");
    rotation.publishedKids().forEach(kids::add);
    return answer;
  }

  /** The online check's answer for a valid pass. */
  public static ObjectNode verified(Pass pass) {
    ObjectNode answer = Json.object();
    answer.put("valid", true);
    answer.put("room", pass.room());
    answer.put("ticket", pass.ticket());
    answer.put("pass_id", pass.id());
    answer.put("kid", pass.keyId());
    answer.put("issued_at", pass.issuedAt().toEpochMilli());
    answer.put("expires_at", pass.expiresAt().toEpochMilli());
    return answer;
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

  /** The grant log: {@code {"grants": [...]}}, each with the ticket that used it (or null). */
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
      items.add(g);
    }
    return answer;
  }
}
