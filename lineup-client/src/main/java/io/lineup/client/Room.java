package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;

/**
 * A waiting room's settings and counts.
 *
 * @param name its namespace and name
 * @param maxActive passes valid at once
 * @param admitPerMinute admissions in any sliding minute (0: no limit)
 * @param passTtl lifetime of a pass
 * @param renewable whether passes can be renewed
 * @param queueingMethod how tickets are ordered
 * @param eventStartAt the event start, or null
 * @param grace how long a waiting ticket keeps its place without a poll
 * @param suspended whether nobody is admitted
 * @param waiting tickets waiting in line
 * @param active passes valid now
 * @param preQueue tickets waiting for the event start
 * @param jwksUrl the path of the room's public keys (a JWKS), for offline checks
 * @param createdAt when it was first put
 */
public record Room(
    RoomName name,
    int maxActive,
    int admitPerMinute,
    Duration passTtl,
    boolean renewable,
    QueueingMethod queueingMethod,
    Instant eventStartAt,
    Duration grace,
    boolean suspended,
    long waiting,
    long active,
    long preQueue,
    String jwksUrl,
    Instant createdAt) {

  static Room read(JsonNode node) {
    return new Room(
        RoomName.of(Json.text(node, "namespace"), Json.text(node, "room")),
        Json.intValue(node, "max_active", 0),
        Json.intValue(node, "admit_per_minute", 0),
        Json.millis(node, "pass_ttl_ms"),
        node.path("renewable").asBoolean(false),
        QueueingMethod.read(Json.text(node, "queueing_method")),
        Json.time(node, "event_start_at"),
        Json.millis(node, "grace_ms"),
        node.path("suspended").asBoolean(false),
        Json.longValue(node, "waiting", 0),
        Json.longValue(node, "active", 0),
        Json.longValue(node, "pre_queue", 0),
        Json.text(node, "jwks_url"),
        Json.time(node, "created_at"));
  }
}
