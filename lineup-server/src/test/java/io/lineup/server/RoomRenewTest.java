package io.lineup.server;

import static io.lineup.server.RoomFixtures.join;
import static io.lineup.server.RoomFixtures.joinId;
import static io.lineup.server.RoomFixtures.name;
import static io.lineup.server.RoomFixtures.poll;
import static io.lineup.server.RoomFixtures.room;
import static io.lineup.server.RoomFixtures.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.pass.Pass;
import io.lineup.pass.PassVerifier;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code POST /v1/rooms/{ns}/{room}/tickets/{ticket}/renew}: another pass lifetime, or 409. */
class RoomRenewTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "renew";

  static String renewPath(String room, String ticket) {
    return room + "/tickets/" + ticket + "/renew";
  }

  /** Waits until the clock has passed this epoch millisecond. */
  static void awaitPast(long epochMs) {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> System.currentTimeMillis() > epochMs);
  }

  @Test
  void aRenewedPassIsValidForAnotherLifetimeFromNowAndKeepsItsIdAndSlot() throws Exception {
    Api api = server.admin();
    String room =
        room(api, NS, name("ok"), "\"max_active\": 1, \"renewable\": true, \"pass_ttl_ms\": 4000");
    JsonNode admitted = join(api, room, "{}");
    String ticket = admitted.path("ticket").asText();
    assertThat(admitted.path("status").asText()).isEqualTo("admitted");
    assertThat(admitted.path("renewable").asBoolean()).isTrue();
    long firstExpiry = admitted.path("pass_expires_at").asLong();
    awaitPast(admitted.path("admitted_at").asLong() + 2_000);

    Reply renewed = api.post(renewPath(room, ticket), "{}");

    assertThat(renewed.status()).as(renewed.toString()).isEqualTo(200);
    JsonNode view = renewed.json();
    assertThat(view.path("status").asText()).isEqualTo("admitted");
    assertThat(view.path("pass_id").asText()).isEqualTo(admitted.path("pass_id").asText());
    assertThat(view.path("admitted_at").asLong()).isEqualTo(admitted.path("admitted_at").asLong());
    assertThat(view.path("pass_expires_at").asLong()).isGreaterThanOrEqualTo(firstExpiry + 1_000);
    String pass = view.path("pass").asText();
    assertThat(pass).isNotEqualTo(admitted.path("pass").asText());
    Pass checked =
        PassVerifier.fromJwks(api.get(room + "/jwks.json").text())
            .verify(pass, room.substring("/v1/rooms/".length()));
    assertThat(checked.expiresAt().toEpochMilli())
        .isBetween(
            view.path("pass_expires_at").asLong(), view.path("pass_expires_at").asLong() + 999);

    // Past the first pass's end the ticket still holds the only slot, and its new pass verifies.
    awaitPast(firstExpiry + 500);
    assertThat(poll(api, room, ticket).path("status").asText()).isEqualTo("admitted");
    Reply online =
        api.post(
            "/v1/passes/verify",
            "{\"room\": \""
                + NS
                + "/"
                + room.substring(room.lastIndexOf('/') + 1)
                + "\", \"pass\": \""
                + pass
                + "\"}");
    assertThat(online.status()).as(online.toString()).isEqualTo(200);
    String next = joinId(api, room);
    assertThat(poll(api, room, next).path("status").asText()).isEqualTo("waiting");
  }

  @Test
  void aRoomWhosePassesAreNotRenewableAnswers409AndChangesNothing() {
    Api api = server.admin();
    String room = room(api, NS, name("fixed"), "\"max_active\": 1");
    JsonNode admitted = join(api, room, "{}");
    String ticket = admitted.path("ticket").asText();

    Reply refused = api.post(renewPath(room, ticket), "{}");

    assertThat(refused.status()).isEqualTo(409);
    assertThat(refused.field("error")).isEqualTo("not_renewable");
    assertThat(refused.field("message")).contains("not renewable");
    assertThat(poll(api, room, ticket).path("pass_expires_at").asLong())
        .isEqualTo(admitted.path("pass_expires_at").asLong());
  }

  @Test
  void aWaitingTicketAndAReleasedOneHoldNoPassToRenew() {
    Api api = server.admin();
    String room = room(api, NS, name("nopass"), "\"max_active\": 1, \"renewable\": true");
    String holder = joinId(api, room);
    String waiting = joinId(api, room);

    Reply forWaiting = api.post(renewPath(room, waiting), "{}");
    assertThat(api.delete(room + "/tickets/" + holder).status()).isEqualTo(200);
    Reply forReleased = api.post(renewPath(room, holder), "{}");

    assertThat(forWaiting.status()).isEqualTo(409);
    assertThat(forWaiting.field("error")).isEqualTo("not_renewable");
    assertThat(forReleased.status()).isEqualTo(409);
    assertThat(forReleased.field("error")).isEqualTo("not_renewable");
    assertThat(poll(api, room, holder).path("status").asText()).isEqualTo("gone");
  }

  @Test
  void anExpiredPassCannotBeRenewed() {
    Api api = server.admin();
    String room =
        room(
            api, NS, name("late"), "\"max_active\": 1, \"renewable\": true, \"pass_ttl_ms\": 1000");
    String ticket = joinId(api, room);
    await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> poll(api, room, ticket).path("status").asText().equals("gone"));

    Reply refused = api.post(renewPath(room, ticket), "{}");

    assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
    assertThat(refused.field("error")).isEqualTo("not_renewable");
    assertThat(poll(api, room, ticket).path("reason").asText()).isEqualTo("expired");
  }

  @Test
  void badRenewalsAreRefusedWithTheRightCode() {
    Api api = server.admin();
    String room = room(api, NS, name("bad"), "\"max_active\": 1, \"renewable\": true");
    String ticket = joinId(api, room);

    Reply malformed = api.post(renewPath(room, "not-a-ticket"), "{}");
    Reply unknownRoom = api.post(renewPath("/v1/rooms/" + NS + "/nowhere", ticket), "{}");
    Reply consumeOnly =
        api.as(token(api, NS, "[\"consume\"]", 0)).post(renewPath(room, ticket), "{}");

    assertThat(malformed.status()).isEqualTo(400);
    assertThat(malformed.field("error")).isEqualTo("invalid_name");
    assertThat(malformed.field("field")).isEqualTo("ticket");
    assertThat(unknownRoom.status()).isEqualTo(404);
    assertThat(consumeOnly.status()).isEqualTo(403);
    assertThat(poll(api, room, ticket).path("status").asText()).isEqualTo("admitted");
  }
}
