package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A waiting room's settings and counts ({@code GET /v1/rooms/{ns}/{room}}); every field is present.
 *
 * @param namespace its namespace
 * @param room its name within the namespace
 * @param maxActive passes valid at once
 * @param admitPerMinute admissions in any sliding minute (0: no limit)
 * @param passTtlMs lifetime of a pass, in milliseconds
 * @param renewable whether passes can be renewed
 * @param queueingMethod how tickets are ordered ({@code fifo}, {@code random}, {@code reject},
 *     {@code passthrough})
 * @param eventStartAt the event start, epoch milliseconds, or null
 * @param graceMs how long a waiting ticket keeps its place without a poll, in milliseconds
 * @param suspended whether nobody is admitted
 * @param createdAt when it was first put, epoch milliseconds
 * @param updatedAt when it was last put, epoch milliseconds
 * @param waiting tickets waiting in line
 * @param active passes valid now
 * @param preQueue tickets waiting for the event start
 * @param jwksUrl the path of the room's public keys (a JWKS), for offline checks
 */
@JsonPropertyOrder({
  "namespace",
  "room",
  "max_active",
  "admit_per_minute",
  "pass_ttl_ms",
  "renewable",
  "queueing_method",
  "event_start_at",
  "grace_ms",
  "suspended",
  "created_at",
  "updated_at",
  "waiting",
  "active",
  "pre_queue",
  "jwks_url"
})
public record Room(
    @JsonProperty("namespace") String namespace,
    @JsonProperty("room") String room,
    @JsonProperty("max_active") int maxActive,
    @JsonProperty("admit_per_minute") int admitPerMinute,
    @JsonProperty("pass_ttl_ms") long passTtlMs,
    @JsonProperty("renewable") boolean renewable,
    @JsonProperty("queueing_method") String queueingMethod,
    @JsonProperty("event_start_at") Long eventStartAt,
    @JsonProperty("grace_ms") long graceMs,
    @JsonProperty("suspended") boolean suspended,
    @JsonProperty("created_at") Long createdAt,
    @JsonProperty("updated_at") Long updatedAt,
    @JsonProperty("waiting") long waiting,
    @JsonProperty("active") long active,
    @JsonProperty("pre_queue") long preQueue,
    @JsonProperty("jwks_url") String jwksUrl) {}
