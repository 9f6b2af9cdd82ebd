package io.lineup.server.room;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.ErrorCode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
   * Marks the grant used by the ticket; false when it was used already (atomic across instances).
   */
  boolean use(String grantId, String ticket, long now) {
    return grantUses.putIfAbsent(grantId, ticket + " " + now);
  }

  /** The fields {@code POST .../grants} takes. */
  static final Set<String> GRANT_FIELDS = Set.of("priority", "subject", "ttl_ms", "note");

  /**
   * Creates a single-use priority grant for the room.
   *
   * @throws ApiException 400 naming a bad field, 403 {@code priority_not_allowed} above the token's
   *     maximum priority
   */
  ObjectNode create(RoomKey key, JsonNode body, Principal principal) {
    JsonFields f = JsonFields.of(body, "", GRANT_FIELDS);
    Integer priority = f.optionalInt("priority", -255, 255);
    if (priority == null) {
      throw ApiException.invalidField("priority", "is required: an integer from -255 to 255");
    }
    if (priority > principal.maxPriority()) {
      throw new ApiException(
              ErrorCode.PRIORITY_NOT_ALLOWED,
              "priority",
              "priority " + priority + " is above the token's " + principal.maxPriority())
          .with("max_priority", principal.maxPriority());
    }
    long ttl = f.longOr("ttl_ms", 1_000, RoomService.MAX_GRANT_TTL_MS, 3_600_000);
    String subject = f.optionalText("subject", RoomService.MAX_GRANT_TEXT);
    String note = f.optionalText("note", RoomService.MAX_GRANT_TEXT);
    long now = System.currentTimeMillis();
    String id = ids.newId('g');
    ObjectNode g = Json.object();
    g.put("grant", id);
    g.put("room", key.toString());
    g.put("priority", priority);
    putText(g, "subject", subject);
    putText(g, "note", note);
    g.put("created_at", now);
    g.put("expires_at", now + ttl);
    g.put("created_by", principal.tokenId());
    grants.put(id, g.toString());
    return g;
  }

  private static void putText(ObjectNode o, String name, String value) {
    if (value == null) {
      o.putNull(name);
    } else {
      o.put(name, value);
    }
  }

  /**
   * The grant a join presents, checked: its room, expiry, subject and that it is unused.
   *
   * @throws ApiException 403 {@code grant_refused} saying why not
   */
  ObjectNode check(RoomKey key, String grantId, String subject) {
    if (!GRANT_ID.matcher(grantId).matches()) {
      throw new ApiException(ErrorCode.GRANT_REFUSED, "grant", "no such grant");
    }
    ObjectNode g =
        grants
            .get(grantId)
            .map(RoomService::readObject)
            .orElseThrow(() -> new ApiException(ErrorCode.GRANT_REFUSED, "grant", "no such grant"));
    if (!g.path("room").asText().equals(key.toString())) {
      throw new ApiException(ErrorCode.GRANT_REFUSED, "grant", "the grant is for another room");
    }
    if (g.path("expires_at").asLong() <= System.currentTimeMillis()) {
      throw new ApiException(ErrorCode.GRANT_REFUSED, "grant", "the grant has expired");
    }
    if (grantUses.get(grantId).isPresent()) {
      throw new ApiException(ErrorCode.GRANT_REFUSED, "grant", "the grant was used already");
    }
    if (!g.path("subject").isNull() && !g.path("subject").asText().equals(subject)) {
      throw new ApiException(
          ErrorCode.GRANT_REFUSED, "subject", "the grant is for another subject");
    }
    return g;
  }

  /** The room's grants, newest first, each with the ticket that used it (null while unused). */
  ObjectNode log(RoomKey key) {
    List<ObjectNode> list = new ArrayList<>();
    for (String text : grants.all().values()) {
      ObjectNode g = RoomService.readObject(text);
      if (!g.path("room").asText().equals(key.toString())) {
        continue;
      }
      Optional<String> use = grantUses.get(g.path("grant").asText());
      if (use.isPresent()) {
        String[] parts = use.get().split(" ");
        g.put("used_by_ticket", parts[0]);
        g.put("used_at", Long.parseLong(parts[1]));
      } else {
        g.putNull("used_by_ticket");
        g.putNull("used_at");
      }
      list.add(g);
    }
    list.sort((a, b) -> Long.compare(b.path("created_at").asLong(), a.path("created_at").asLong()));
    ObjectNode answer = Json.object();
    ArrayNode items = answer.putArray("grants");
    list.forEach(items::add);
    return answer;
  }
}
