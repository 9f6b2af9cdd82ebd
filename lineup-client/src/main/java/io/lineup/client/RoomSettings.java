package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;

/**
 * The settings of a waiting room for {@link RoomsClient#putRoom}: {@code max_active} and only the
 * settings named; the server gives the others their defaults (docs/waiting-room.md, "Settings",
 * lists every range) and answers 400 naming a field out of range.
 *
 * <pre>{@code
 * RoomSettings.maxActive(100).admitPerMinute(600).passTtl(Duration.ofMinutes(5))
 * }</pre>
 */
public final class RoomSettings {
  private final ObjectNode json = Json.object();

  private RoomSettings(int maxActive) {
    json.put("max_active", maxActive);
  }

  /** A room where at most {@code maxActive} passes (1 to 1,000,000) are valid at once. */
  public static RoomSettings maxActive(int maxActive) {
    return new RoomSettings(maxActive);
  }

  /** At most this many admissions in any sliding minute (0 to 100,000; default 0: no limit). */
  public RoomSettings admitPerMinute(int admissions) {
    json.put("admit_per_minute", admissions);
    return this;
  }

  /** The lifetime of a pass (1 s to 24 h; default 10 min). */
  public RoomSettings passTtl(Duration ttl) {
    json.put("pass_ttl_ms", ttl.toMillis());
    return this;
  }

  /** Whether a pass can be renewed for another lifetime (default false). */
  public RoomSettings renewable(boolean renewable) {
    json.put("renewable", renewable);
    return this;
  }

  /** How tickets are ordered and admitted (default {@link QueueingMethod#FIFO}). */
  public RoomSettings queueingMethod(QueueingMethod method) {
    json.put("queueing_method", method.json());
    return this;
  }

  /** Tickets joining before this time wait in a pre-queue. */
  public RoomSettings eventStartAt(Instant start) {
    json.put("event_start_at", start.toEpochMilli());
    return this;
  }

  /** A waiting ticket not polled within this loses its place (1 s to 1 h; default 5 min). */
  public RoomSettings grace(Duration grace) {
    json.put("grace_ms", grace.toMillis());
    return this;
  }

  /** A suspended room admits nobody; the line keeps its order. */
  public RoomSettings suspended(boolean suspended) {
    json.put("suspended", suspended);
    return this;
  }

  JsonNode toJson() {
    return json.deepCopy();
  }
}
