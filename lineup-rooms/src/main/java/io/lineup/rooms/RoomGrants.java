package io.lineup.rooms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A room's single-use priority grants (record stores {@code room-grants} and {@code
 * room-grant-uses}): made by the business backend, presented once by a joining user, and listed
 * with the ticket that used each, so an operator can see who was moved ahead and why.
 */
final class RoomGrants {
  private static final Pattern GRANT_ID = Pattern.compile("g[A-Za-z0-9_-]{22}");

  private final RecordStore grants;
  private final RecordStore grantUses;
  private final RoomIds ids;

  RoomGrants(Lineup lineup, RoomIds ids) {
    this.grants = lineup.records("room-grants");
    this.grantUses = lineup.records("room-grant-uses");
    this.ids = ids;
  }

  /**
   * Marks the grant used by the ticket, joined with the token whose public id is {@code tokenId}
   * (never its secret); false when it was used already (atomic across instances). Stored as {@code
   * <ticket> <used at, epoch ms> <token id>}; uses recorded by earlier versions lack the token.
   */
  boolean use(String grantId, String ticket, long now, String tokenId) {
    return grantUses.putIfAbsent(grantId, ticket + " " + now + " " + tokenId);
  }

  /**
   * Creates a single-use priority grant for the room.
   *
   * @throws PriorityNotAllowedException above the caller's maximum priority
   */
  Grant create(RoomKey key, GrantRequest request) {
    Caller caller = request.caller();
    if (request.priority() > caller.maxPriority()) {
      throw new PriorityNotAllowedException(request.priority(), caller.maxPriority(), "token");
    }
    long now = System.currentTimeMillis();
    Grant grant =
        new Grant(
            ids.newId('g'),
            key,
            request.priority(),
            request.subject(),
            request.note(),
            now,
            now + request.ttlMs(),
            caller.id());
    grants.put(grant.id(), text(grant));
    return grant;
  }

  /** The stored record: the grant's fields under the names the HTTP API gives them. */
  private static String text(Grant grant) {
    ObjectNode g = StoredJson.object();
    g.put("grant", grant.id());
    g.put("room", grant.room().toString());
    g.put("priority", grant.priority());
    g.put("subject", grant.subject());
    g.put("note", grant.note());
    g.put("created_at", grant.createdAt());
    g.put("expires_at", grant.expiresAt());
    g.put("created_by", grant.createdBy());
    return g.toString();
  }

  private static Grant parse(String text) {
    ObjectNode g = StoredJson.read(text);
    return new Grant(
        g.path("grant").asText(),
        RoomKey.parse(g.path("room").asText()),
        g.path("priority").asInt(),
        textOrNull(g.path("subject")),
        textOrNull(g.path("note")),
        g.path("created_at").asLong(),
        g.path("expires_at").asLong(),
        g.path("created_by").asText());
  }

  private static String textOrNull(JsonNode value) {
    return value.isTextual() ? value.asText() : null;
  }

  /**
   * The grant a join presents, checked: its room, expiry, subject and that it is unused.
   *
   * @throws GrantRefusedException saying why not
   */
  Grant check(RoomKey key, String grantId, String subject) {
    if (!GRANT_ID.matcher(grantId).matches()) {
      throw new GrantRefusedException("grant", "no such grant");
    }
    Grant g =
        grants
            .get(grantId)
            .map(RoomGrants::parse)
            .orElseThrow(() -> new GrantRefusedException("grant", "no such grant"));
    if (!g.room().equals(key)) {
      throw new GrantRefusedException("grant", "the grant is for another room");
    }
    if (g.expiresAt() <= System.currentTimeMillis()) {
      throw new GrantRefusedException("grant", "the grant has expired");
    }
    if (grantUses.get(grantId).isPresent()) {
      throw new GrantRefusedException("grant", "the grant was used already");
    }
    if (g.subject() != null && !g.subject().equals(subject)) {
      throw new GrantRefusedException("subject", "the grant is for another subject");
    }
    return g;
  }

  /**
   * The room's grants, newest first, each with the ticket and the token that used it (null while
   * unused).
   */
  List<GrantLogEntry> log(RoomKey key) {
    List<GrantLogEntry> list = new ArrayList<>();
    for (String text : grants.all().values()) {
      Grant g = parse(text);
      if (!g.room().equals(key)) {
        continue;
      }
      Optional<String> use = grantUses.get(g.id());
      if (use.isPresent()) {
        String[] parts = use.get().split(" ", 3);
        String token = parts.length > 2 ? parts[2] : null;
        list.add(new GrantLogEntry(g, parts[0], Long.parseLong(parts[1]), token));
      } else {
        list.add(new GrantLogEntry(g, null, null, null));
      }
    }
    list.sort(Comparator.comparingLong((GrantLogEntry e) -> e.grant().createdAt()).reversed());
    return list;
  }
}
