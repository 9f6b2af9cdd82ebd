package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.rooms.Caller;
import io.lineup.rooms.GrantRequest;
import io.lineup.rooms.JoinRequest;
import io.lineup.rooms.RoomKey;
import io.lineup.rooms.RoomSpec;
import io.lineup.rooms.Rooms;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import java.util.List;
import java.util.Set;

/**
 * The request bodies of the room routes read into the rooms' typed requests, each field checked (a
 * 400 naming the field when one is missing, unknown or out of range).
 */
final class RoomRequests {
  /** The fields {@code PUT /v1/rooms/{ns}/{room}} takes. */
  private static final Set<String> SPEC_FIELDS =
      Set.of(
          "max_active",
          "admit_per_minute",
          "pass_ttl_ms",
          "renewable",
          "queueing_method",
          "event_start_at",
          "grace_ms",
          "suspended");

  /** The fields a join takes. */
  private static final Set<String> JOIN_FIELDS = Set.of("grant", "subject", "priority");

  /** The fields {@code POST .../grants} takes. */
  private static final Set<String> GRANT_FIELDS = Set.of("priority", "subject", "ttl_ms", "note");

  /** The fields {@code POST /v1/passes/verify} takes. */
  private static final Set<String> VERIFY_FIELDS = Set.of("pass", "room");

  /** Longest {@code namespace/room} a verification names. */
  private static final int MAX_ROOM_TEXT = 130;

  /** Longest pass a verification carries. */
  private static final int MAX_PASS_TEXT = io.lineup.pass.PassVerifier.MAX_TOKEN_LENGTH;

  private RoomRequests() {}

  /** Who asks, as the rooms know callers. */
  static Caller caller(Principal principal) {
    return new Caller(principal.admin(), principal.maxPriority(), principal.tokenId());
  }

  /**
   * A room's settings; absent fields take their defaults, {@code max_active} is required.
   *
   * @throws ApiException 400 naming the field when one is missing, unknown or out of range
   */
  static RoomSpec spec(JsonNode body) {
    JsonFields f = JsonFields.of(body, "", SPEC_FIELDS);
    Integer maxActive = f.optionalInt("max_active", 1, RoomSpec.MAX_ACTIVE);
    if (maxActive == null) {
      throw ApiException.invalidField("max_active", "is required: most passes valid at once");
    }
    String method = f.optionalText("queueing_method", 16);
    RoomSpec.Method m = RoomSpec.Method.FIFO;
    if (method != null) {
      m =
          List.of(RoomSpec.Method.values()).stream()
              .filter(x -> x.wireName().equals(method))
              .findFirst()
              .orElseThrow(() ->
                  ApiException.invalidField(
                      "queueing_method", "must be fifo, random, passthrough or reject"));
    }
    long start = f.longOr("event_start_at", 0, 253_402_300_799_999L, 0);
    return new RoomSpec(
        maxActive,
        (int) f.longOr("admit_per_minute", 0, RoomSpec.MAX_ADMIT_PER_MINUTE, 0),
        f.longOr(
            "pass_ttl_ms",
            RoomSpec.MIN_PASS_TTL_MS,
            RoomSpec.MAX_PASS_TTL_MS,
            RoomSpec.DEFAULT_PASS_TTL_MS),
        Boolean.TRUE.equals(f.optionalBoolean("renewable")),
        m,
        start,
        f.longOr(
            "grace_ms", RoomSpec.MIN_GRACE_MS, RoomSpec.MAX_GRACE_MS, RoomSpec.DEFAULT_GRACE_MS),
        Boolean.TRUE.equals(f.optionalBoolean("suspended")));
  }

  /**
   * A join; an absent body is a plain join.
   *
   * @throws ApiException 400 naming a malformed field
   */
  static JoinRequest join(JsonNode body, Principal principal) {
    JsonFields f = JsonFields.of(body == null ? Json.object() : body, "", JOIN_FIELDS);
    String grant = f.optionalText("grant", 64);
    String subject = f.optionalText("subject", Rooms.MAX_GRANT_TEXT);
    Integer priority = f.optionalInt("priority", -255, 255);
    return new JoinRequest(caller(principal), grant, subject, priority);
  }

  /**
   * A grant to make.
   *
   * @throws ApiException 400 naming a missing or malformed field
   */
  static GrantRequest grant(JsonNode body, Principal principal) {
    JsonFields f = JsonFields.of(body, "", GRANT_FIELDS);
    Integer priority = f.optionalInt("priority", -255, 255);
    if (priority == null) {
      throw ApiException.invalidField("priority", "is required: an integer from -255 to 255");
    }
    long ttl = f.longOr("ttl_ms", 1_000, Rooms.MAX_GRANT_TTL_MS, 3_600_000);
    String subject = f.optionalText("subject", Rooms.MAX_GRANT_TEXT);
    String note = f.optionalText("note", Rooms.MAX_GRANT_TEXT);
    return new GrantRequest(caller(principal), priority, ttl, subject, note);
  }

  /**
   * A pass to verify and the room it must be for.
   *
   * @param pass the pass (a compact JWT)
   * @param room the room
   */
  record Verification(String pass, RoomKey room) {}

  /**
   * A verification's body.
   *
   * @throws ApiException 400 for a missing or malformed field, or a room not of the form {@code
   *     namespace/room}
   */
  static Verification verification(JsonNode body) {
    JsonFields f = JsonFields.of(body, "", VERIFY_FIELDS);
    String token = f.requiredText("pass", MAX_PASS_TEXT);
    String roomText = f.requiredText("room", MAX_ROOM_TEXT);
    try {
      return new Verification(token, RoomKey.parse(roomText));
    } catch (io.lineup.core.model.InvalidArgumentException e) {
      throw ApiException.invalidField("room", "must be namespace/room: " + e.reason());
    }
  }
}
