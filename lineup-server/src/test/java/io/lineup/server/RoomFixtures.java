package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.atomic.AtomicInteger;

/** Helpers of the waiting-room tests. */
final class RoomFixtures {
  private static final AtomicInteger SEQ = new AtomicInteger();

  private RoomFixtures() {}

  /** A room name not used before in this run. */
  static String name(String stem) {
    return stem + SEQ.incrementAndGet();
  }

  /** Creates a room with these settings (JSON fields without braces) and returns its path. */
  static String room(Api api, String ns, String name, String settings) {
    String path = "/v1/rooms/" + ns + "/" + name;
    Reply reply = api.put(path, "{" + settings + "}");
    assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    return path;
  }

  /** Joins and returns the ticket's answer. */
  static JsonNode join(Api api, String room, String body) {
    Reply reply = api.post(room + "/tickets", body);
    assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    return reply.json();
  }

  /** Joins and returns the ticket id. */
  static String joinId(Api api, String room) {
    return join(api, room, "{}").path("ticket").asText();
  }

  /** Polls a ticket. */
  static JsonNode poll(Api api, String room, String ticket) {
    Reply reply = api.get(room + "/tickets/" + ticket);
    assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    return reply.json();
  }

  /** A namespace token with these scopes (a JSON array) and maximum priority. */
  static String token(Api admin, String ns, String scopes, int maxPriority) {
    return tokenRecord(admin, ns, scopes, maxPriority).path("token").asText();
  }

  /**
   * A namespace token with these scopes (a JSON array) and maximum priority: its record as issued,
   * with its public {@code id} and its secret {@code token}.
   */
  static JsonNode tokenRecord(Api admin, String ns, String scopes, int maxPriority) {
    admin.post("/v1/admin/namespaces", "{\"name\": \"" + ns + "\"}");
    Reply reply =
        admin.post(
            "/v1/admin/tokens",
            "{\"namespace\": \""
                + ns
                + "\", \"scopes\": "
                + scopes
                + ", \"max_priority\": "
                + maxPriority
                + ", \"name\": \"room test\"}");
    assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    return reply.json();
  }
}
