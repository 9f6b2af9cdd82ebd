package io.lineup.rooms;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A room's stored record (record store {@code rooms}): its settings under the names the HTTP API
 * gives them, when it was created and last changed, and its generation.
 *
 * <p>The generation counts the rooms of this name: a room created after its predecessor of the same
 * name was deleted has the next one. Every write that could outlive the room (its signing keys, the
 * tickets a join adds, its grants) is checked against it, so that an instance whose copy of the
 * settings still shows a deleted room cannot write into it or into its successor
 * (docs/waiting-room.md, "A room's life").
 *
 * @param spec the settings
 * @param createdAt epoch ms
 * @param updatedAt epoch ms
 * @param generation 1 for the first room of this name, one more for each re-creation (records
 *     written before generations existed read as 1)
 */
record RoomRecord(RoomSpec spec, long createdAt, long updatedAt, long generation) {
  /**
   * The record of a stored text.
   *
   * @throws RuntimeException when the text is not such a record
   */
  static RoomRecord parse(String text) {
    ObjectNode o = StoredJson.read(text);
    JsonNode method = o.path("queueing_method");
    RoomSpec spec =
        new RoomSpec(
            required(o, "max_active").asInt(),
            o.path("admit_per_minute").asInt(0),
            o.path("pass_ttl_ms").asLong(RoomSpec.DEFAULT_PASS_TTL_MS),
            o.path("renewable").asBoolean(false),
            method.isTextual() ? methodOf(method.asText()) : RoomSpec.Method.FIFO,
            o.path("event_start_at").asLong(0),
            o.path("grace_ms").asLong(RoomSpec.DEFAULT_GRACE_MS),
            o.path("suspended").asBoolean(false));
    long created = o.path("created_at").asLong(0);
    return new RoomRecord(
        spec, created, o.path("updated_at").asLong(created), o.path("generation").asLong(1));
  }

  private static JsonNode required(ObjectNode o, String field) {
    JsonNode value = o.path(field);
    if (!value.isNumber()) {
      throw new IllegalStateException("a room record has no " + field);
    }
    return value;
  }

  private static RoomSpec.Method methodOf(String name) {
    for (RoomSpec.Method m : RoomSpec.Method.values()) {
      if (m.wireName().equals(name)) {
        return m;
      }
    }
    throw new IllegalStateException("a room record has the unknown method " + name);
  }

  /**
   * The stored text: every setting, then {@code created_at}, {@code updated_at} and {@code
   * generation}.
   */
  String text() {
    ObjectNode o = StoredJson.object();
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
    o.put("created_at", createdAt);
    o.put("updated_at", updatedAt);
    o.put("generation", generation);
    return o.toString();
  }
}
