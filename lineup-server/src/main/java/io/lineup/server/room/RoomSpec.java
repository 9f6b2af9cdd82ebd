package io.lineup.server.room;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The settings of a waiting room, as {@code PUT /v1/rooms/{ns}/{room}} takes them and Redis keeps
 * them. Every limit and default is named here and in docs/waiting-room.md.
 *
 * @param maxActive most passes valid at once, 1 to {@value #MAX_ACTIVE}
 * @param admitPerMinute most admissions in any sliding minute, 0 (no limit) to {@value
 *     #MAX_ADMIT_PER_MINUTE}
 * @param passTtlMs how long a pass is valid, {@value #MIN_PASS_TTL_MS} to {@value #MAX_PASS_TTL_MS}
 *     ms
 * @param renewable whether a pass holder may renew its pass (for another {@code passTtlMs})
 * @param method how the line is ordered and what happens when full
 * @param eventStartAt when a scheduled event opens (epoch ms), or 0 for none
 * @param graceMs a waiting ticket not polled within this long loses its place, {@value
 *     #MIN_GRACE_MS} to {@value #MAX_GRACE_MS} ms
 * @param suspended whether admissions are stopped
 */
public record RoomSpec(
    int maxActive,
    int admitPerMinute,
    long passTtlMs,
    boolean renewable,
    Method method,
    long eventStartAt,
    long graceMs,
    boolean suspended) {

  /** Largest {@code max_active}. */
  public static final int MAX_ACTIVE = 1_000_000;

  /** Largest {@code admit_per_minute}. */
  public static final int MAX_ADMIT_PER_MINUTE = 100_000;

  /** Shortest pass lifetime: 1 s. */
  public static final long MIN_PASS_TTL_MS = 1_000;

  /** Longest pass lifetime: 24 h. */
  public static final long MAX_PASS_TTL_MS = 86_400_000;

  /** Default pass lifetime: 10 minutes. */
  public static final long DEFAULT_PASS_TTL_MS = 600_000;

  /** Shortest abandonment grace: 1 s. */
  public static final long MIN_GRACE_MS = 1_000;

  /** Longest abandonment grace: 1 h. */
  public static final long MAX_GRACE_MS = 3_600_000;

  /** Default abandonment grace: 5 minutes, as Cloudflare holds an abandoned place. */
  public static final long DEFAULT_GRACE_MS = 300_000;

  /** How the line is kept. */
  public enum Method {
    /** First come, first served within a priority. */
    FIFO,
    /** Those who joined before the event start in a random order, then FIFO. */
    RANDOM,
    /** Everyone is admitted at once, without limits (the room is open). */
    PASSTHROUGH,
    /** A join is refused while the room is full or anyone waits. */
    REJECT;

    /** The name in JSON. */
    public String json() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private static final Set<String> FIELDS =
      Set.of(
          "max_active",
          "admit_per_minute",
          "pass_ttl_ms",
          "renewable",
          "queueing_method",
          "event_start_at",
          "grace_ms",
          "suspended");

  /**
   * The settings of a request body; absent fields take their defaults, {@code max_active} is
   * required.
   *
   * @throws ApiException 400 naming the field when one is missing, unknown or out of range
   */
  public static RoomSpec parse(JsonNode body) {
    JsonFields f = JsonFields.of(body, "", FIELDS);
    Integer maxActive = f.optionalInt("max_active", 1, MAX_ACTIVE);
    if (maxActive == null) {
      throw ApiException.invalidField("max_active", "is required: most passes valid at once");
    }
    String method = f.optionalText("queueing_method", 16);
    Method m = Method.FIFO;
    if (method != null) {
      m =
          List.of(Method.values()).stream()
              .filter(x -> x.json().equals(method))
              .findFirst()
              .orElseThrow(() ->
                  ApiException.invalidField(
                      "queueing_method", "must be fifo, random, passthrough or reject"));
    }
    long start = f.longOr("event_start_at", 0, 253_402_300_799_999L, 0);
    return new RoomSpec(
        maxActive,
        (int) f.longOr("admit_per_minute", 0, MAX_ADMIT_PER_MINUTE, 0),
        f.longOr("pass_ttl_ms", MIN_PASS_TTL_MS, MAX_PASS_TTL_MS, DEFAULT_PASS_TTL_MS),
        Boolean.TRUE.equals(f.optionalBoolean("renewable")),
        m,
        start,
        f.longOr("grace_ms", MIN_GRACE_MS, MAX_GRACE_MS, DEFAULT_GRACE_MS),
        Boolean.TRUE.equals(f.optionalBoolean("suspended")));
  }

  /** The settings as JSON, every field present. */
  public ObjectNode toJson() {
    ObjectNode o = Json.object();
    o.put("max_active", maxActive);
    o.put("admit_per_minute", admitPerMinute);
    o.put("pass_ttl_ms", passTtlMs);
    o.put("renewable", renewable);
    o.put("queueing_method", method.json());
    if (eventStartAt == 0) {
      o.putNull("event_start_at");
    } else {
      o.put("event_start_at", eventStartAt);
    }
    o.put("grace_ms", graceMs);
    o.put("suspended", suspended);
    return o;
  }
}
