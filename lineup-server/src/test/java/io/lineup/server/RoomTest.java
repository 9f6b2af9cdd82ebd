package io.lineup.server;

import static io.lineup.server.RoomFixtures.joinId;
import static io.lineup.server.RoomFixtures.name;
import static io.lineup.server.RoomFixtures.poll;
import static io.lineup.server.RoomFixtures.room;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jwt.SignedJWT;
import io.lineup.pass.Pass;
import io.lineup.pass.PassRejectedException;
import io.lineup.pass.PassVerifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Rooms, tickets, admission within max_active, passes (offline, online, revoked), bad input. */
class RoomTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "wr";

  @Test
  void aRoomIsCreatedReadReplacedAndDeleted() {
    Api api = server.admin();
    String path = room(api, NS, name("crud"), "\"max_active\": 3, \"admit_per_minute\": 60");
    JsonNode read = api.get(path).json();
    assertThat(read.path("max_active").asInt()).isEqualTo(3);
    assertThat(read.path("admit_per_minute").asInt()).isEqualTo(60);
    assertThat(read.path("pass_ttl_ms").asLong()).isEqualTo(600_000);
    assertThat(read.path("grace_ms").asLong()).isEqualTo(300_000);
    assertThat(read.path("queueing_method").asText()).isEqualTo("fifo");
    assertThat(read.path("waiting").asLong()).isZero();
    Reply replaced = api.put(path, "{\"max_active\": 5, \"suspended\": true}");
    assertThat(replaced.status()).isEqualTo(200);
    assertThat(replaced.json().path("max_active").asInt()).isEqualTo(5);
    assertThat(replaced.json().path("suspended").asBoolean()).isTrue();
    assertThat(api.delete(path).status()).isEqualTo(204);
    assertThat(api.get(path).status()).isEqualTo(404);
    assertThat(api.delete(path).status()).isEqualTo(404);
  }

  @Test
  void ticketsAreAdmittedInArrivalOrderWithinMaxActiveAndTheOthersMoveUpWhenOneLeaves() {
    Api api = server.admin();
    String room = room(api, NS, name("fifo"), "\"max_active\": 2");
    List<String> tickets = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      tickets.add(joinId(api, room));
    }
    assertThat(poll(api, room, tickets.get(0)).path("status").asText()).isEqualTo("admitted");
    assertThat(poll(api, room, tickets.get(1)).path("status").asText()).isEqualTo("admitted");
    for (int i = 2; i < 5; i++) {
      JsonNode t = poll(api, room, tickets.get(i));
      assertThat(t.path("status").asText()).isEqualTo("waiting");
      assertThat(t.path("position").asLong()).isEqualTo(i - 2);
      assertThat(t.path("poll_after_ms").asLong()).isBetween(200L, 15_000L);
    }
    assertThat(api.get(room).json().path("active").asLong()).isEqualTo(2);

    JsonNode left = api.delete(room + "/tickets/" + tickets.get(0)).json();
    assertThat(left.path("previous_status").asText()).isEqualTo("admitted");

    assertThat(poll(api, room, tickets.get(2)).path("status").asText()).isEqualTo("admitted");
    assertThat(poll(api, room, tickets.get(3)).path("position").asLong()).isZero();
    assertThat(poll(api, room, tickets.get(4)).path("position").asLong()).isEqualTo(1);
    assertThat(poll(api, room, tickets.get(0)).path("status").asText()).isEqualTo("gone");
    assertThat(poll(api, room, tickets.get(0)).path("reason").asText()).isEqualTo("released");
    assertThat(api.get(room).json().path("active").asLong()).isEqualTo(2);
  }

  @Test
  void aJoinAdmittedAtOnceAnswersPositionZeroAnEtaOfZeroThePollIntervalAndTheGraceBesideItsPass() {
    Api api = server.admin();
    String room = room(api, NS, name("at-once"), "\"max_active\": 1, \"grace_ms\": 30000");

    JsonNode admitted = RoomFixtures.join(api, room, "{}");
    JsonNode waiting = RoomFixtures.join(api, room, "{}");

    assertThat(admitted.path("status").asText()).isEqualTo("admitted");
    assertThat(admitted.path("pass").asText()).isNotEmpty();
    assertThat(admitted.path("position").isIntegralNumber()).isTrue();
    assertThat(admitted.path("position").asLong()).isZero();
    assertThat(admitted.path("eta_ms").isIntegralNumber()).isTrue();
    assertThat(admitted.path("eta_ms").asLong()).isZero();
    assertThat(admitted.path("eta_low_ms").asLong()).isZero();
    assertThat(admitted.path("eta_high_ms").asLong()).isZero();
    assertThat(admitted.path("grace_ms").asLong()).isEqualTo(30_000);
    assertThat(admitted.path("poll_after_ms").asLong()).isBetween(200L, 10_000L);
    assertThat(waiting.path("status").asText()).isEqualTo("waiting");
    List<String> waitingFields = new ArrayList<>();
    waiting.fieldNames().forEachRemaining(waitingFields::add);
    List<String> admittedFields = new ArrayList<>();
    admitted.fieldNames().forEachRemaining(admittedFields::add);
    assertThat(admittedFields)
        .as("a waiting answer's fields, and the pass's")
        .containsAll(waitingFields);
    // Its poll answers the same fields.
    List<String> polledFields = new ArrayList<>();
    poll(api, room, admitted.path("ticket").asText())
        .fieldNames()
        .forEachRemaining(polledFields::add);
    assertThat(polledFields).containsExactlyElementsOf(admittedFields);
  }

  @Test
  void theAdminTokenJoinsAtAnyPriorityOfTheRangeAndAPriorityOutsideItIs400() {
    Api api = server.admin();
    String room = room(api, NS, name("admin-prio"), "\"max_active\": 1");
    RoomFixtures.join(api, room, "{}"); // holds the slot

    assertThat(RoomFixtures.join(api, room, "{\"priority\": 200}").path("priority").asInt())
        .isEqualTo(200);
    assertThat(RoomFixtures.join(api, room, "{\"priority\": -255}").path("priority").asInt())
        .isEqualTo(-255);
    assertRefused(
        api.post(room + "/tickets", "{\"priority\": 256}"), 400, "invalid_field", "priority");
    assertRefused(
        api.post(room + "/tickets", "{\"priority\": -256}"), 400, "invalid_field", "priority");
  }

  @Test
  void aWaitingTicketThatLeavesLosesItsPlaceAndTheOnesBehindMoveUp() {
    Api api = server.admin();
    String room = room(api, NS, name("leave"), "\"max_active\": 1");
    String first = joinId(api, room);
    String a = joinId(api, room);
    String b = joinId(api, room);
    assertThat(poll(api, room, b).path("position").asLong()).isEqualTo(1);

    assertThat(api.delete(room + "/tickets/" + a).json().path("previous_status").asText())
        .isEqualTo("waiting");

    assertThat(poll(api, room, b).path("position").asLong()).isZero();
    assertThat(poll(api, room, a).path("reason").asText()).isEqualTo("left");
    assertThat(poll(api, room, first).path("status").asText()).isEqualTo("admitted");
  }

  @Test
  void aSuspendedRoomAdmitsNobodyUntilResumed() {
    Api api = server.admin();
    String name = name("susp");
    String room = room(api, NS, name, "\"max_active\": 5, \"suspended\": true");
    String t = joinId(api, room);
    assertThat(poll(api, room, t).path("status").asText()).isEqualTo("waiting");

    api.put(room, "{\"max_active\": 5}");

    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> poll(api, room, t).path("status").asText().equals("admitted"));
  }

  @Test
  void aPassVerifiesOfflineWithTheServedJwksAndWithNimbus() throws Exception {
    Api api = server.admin();
    String name = name("pass");
    String room = room(api, NS, name, "\"max_active\": 1, \"pass_ttl_ms\": 60000");
    String ticket = joinId(api, room);
    JsonNode admitted = poll(api, room, ticket);
    String token = admitted.path("pass").asText();
    Reply jwks = api.as(null).get(room + "/jwks.json");
    assertThat(jwks.status()).isEqualTo(200);
    assertThat(jwks.header("Content-Type")).startsWith("application/jwk-set+json");

    Pass pass = PassVerifier.fromJwks(jwks.text()).verify(token, NS + "/" + name);

    assertThat(pass.ticket()).isEqualTo(ticket);
    assertThat(pass.id()).isEqualTo(admitted.path("pass_id").asText());
    // exp is whole seconds, rounded up from the deadline the ticket names to the millisecond.
    assertThat(pass.expiresAt().toEpochMilli())
        .isBetween(
            admitted.path("pass_expires_at").asLong(),
            admitted.path("pass_expires_at").asLong() + 999);
    assertThat(Duration.between(pass.issuedAt(), pass.expiresAt()).toSeconds()).isBetween(59L, 61L);
    // The same check by an independent library.
    SignedJWT jwt = SignedJWT.parse(token);
    OctetKeyPair jwk = (OctetKeyPair) JWKSet.parse(jwks.text()).getKeyByKeyId(pass.keyId());
    assertThat(jwt.verify(new Ed25519Verifier(jwk))).isTrue();
    assertThat(jwt.getJWTClaimsSet().getAudience()).containsExactly(NS + "/" + name);
    assertThat(jwt.getJWTClaimsSet().getSubject()).isEqualTo(ticket);
    // No private part is ever served.
    assertThat(jwks.text()).doesNotContain("\"d\"");
    assertThat(api.get(room).text()).doesNotContain("\"d\"");
  }

  @Test
  void aPassVerifiesOnlineAndAlteredWrongRoomGarbageRevokedAndReleasedPassesAreRejected()
      throws Exception {
    Api api = server.admin();
    String name = name("online");
    String other = name("other");
    String room = room(api, NS, name, "\"max_active\": 2");
    room(api, NS, other, "\"max_active\": 2");
    String ticket = joinId(api, room);
    String token = poll(api, room, ticket).path("pass").asText();

    Reply ok = verify(api, token, NS + "/" + name);
    assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
    assertThat(ok.json().path("valid").asBoolean()).isTrue();
    assertThat(ok.json().path("ticket").asText()).isEqualTo(ticket);

    assertRejected(verify(api, altered(token), NS + "/" + name), 403, "bad_signature");
    assertRejected(verify(api, token, NS + "/" + other), 403, "unknown_key");
    assertRejected(verify(api, "garbage", NS + "/" + name), 400, "malformed");
    // Offline, the other room's keys do not know it either; with the right keys, the wrong room.
    String jwks = api.as(null).get(room + "/jwks.json").text();
    assertThat(reasonOffline(jwks, token, NS + "/" + other))
        .isEqualTo(PassRejectedException.Reason.WRONG_ROOM);
    assertThat(reasonOffline(jwks, altered(token), NS + "/" + name))
        .isEqualTo(PassRejectedException.Reason.BAD_SIGNATURE);

    String jti = ok.json().path("pass_id").asText();
    assertThat(api.delete(room + "/passes/" + jti).status()).isEqualTo(204);
    assertRejected(verify(api, token, NS + "/" + name), 403, "revoked");
    assertThat(poll(api, room, ticket).path("status").asText()).isEqualTo("gone");
    assertThat(poll(api, room, ticket).path("reason").asText()).isEqualTo("revoked");
    assertThat(api.get(room).json().path("active").asLong()).isZero();
    assertThat(api.delete(room + "/passes/" + jti).status()).isEqualTo(204); // idempotent
    assertThat(api.delete(room + "/passes/t" + "B".repeat(22) + ".k1").status()).isEqualTo(404);

    String second = joinId(api, room);
    String secondPass = poll(api, room, second).path("pass").asText();
    assertThat(verify(api, secondPass, NS + "/" + name).status()).isEqualTo(200);
    api.delete(room + "/tickets/" + second);
    assertRejected(verify(api, secondPass, NS + "/" + name), 403, "revoked");
  }

  @Test
  void anExpiredPassFreesItsSlotByItselfAndIsRejected() {
    Api api = server.admin();
    String name = name("exp");
    String room = room(api, NS, name, "\"max_active\": 1, \"pass_ttl_ms\": 1000");
    String first = joinId(api, room);
    String token = poll(api, room, first).path("pass").asText();
    String second = joinId(api, room);
    assertThat(poll(api, room, second).path("status").asText()).isEqualTo("waiting");

    await()
        .atMost(Duration.ofSeconds(8))
        .until(() -> poll(api, room, second).path("status").asText().equals("admitted"));

    assertThat(poll(api, room, first).path("reason").asText()).isEqualTo("expired");
    // Within the leeway after its expiry the pass still verifies (as offline); after it, the
    // answer is expired, never revoked: the slot was not taken from it.
    List<String> answers = new ArrayList<>();
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> {
          Reply reply = verify(api, token, NS + "/" + name);
          answers.add(reply.status() == 200 ? "200" : reply.field("reason"));
          return reply.status() == 403;
        });
    assertThat(answers).containsOnly("200", "expired");
  }

  @Test
  void aRotatedKeyKeepsTheOldPassesValidAndSignsNewOnesWithTheNewKey() throws Exception {
    Api api = server.admin();
    String name = name("rot");
    String room = room(api, NS, name, "\"max_active\": 3");
    String first = joinId(api, room);
    String oldPass = poll(api, room, first).path("pass").asText();
    String oldKid = SignedJWT.parse(oldPass).getHeader().getKeyID();

    Reply rotated = api.post(room + "/keys/rotate", "");
    assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
    String newKid = rotated.json().path("current_kid").asText();
    assertThat(newKid).isNotEqualTo(oldKid);

    String jwks = api.as(null).get(room + "/jwks.json").text();
    assertThat(JWKSet.parse(jwks).getKeys()).hasSize(2);
    String second = joinId(api, room);
    String newPass = poll(api, room, second).path("pass").asText();
    assertThat(SignedJWT.parse(newPass).getHeader().getKeyID()).isEqualTo(newKid);
    assertThat(verify(api, oldPass, NS + "/" + name).status()).isEqualTo(200);
    assertThat(verify(api, newPass, NS + "/" + name).status()).isEqualTo(200);
  }

  @Test
  void badInputIsRefusedWithAClear4xxAndWritesNothing() {
    Api api = server.admin();
    String name = name("bad");
    String path = "/v1/rooms/" + NS + "/" + name;
    assertRefused(api.put(path, "{\"max_active\": 0}"), 400, "invalid_field", "max_active");
    assertRefused(api.put(path, "{}"), 400, "invalid_field", "max_active");
    assertRefused(
        api.put(path, "{\"max_active\": 1, \"queueing_method\": \"lifo\"}"),
        400,
        "invalid_field",
        "queueing_method");
    assertRefused(
        api.put(path, "{\"max_active\": 1, \"pass_ttl_ms\": 10}"),
        400,
        "invalid_field",
        "pass_ttl_ms");
    assertRefused(
        api.put(path, "{\"max_active\": 1, \"colour\": \"red\"}"), 400, "unknown_field", "colour");
    assertRefused(api.put(path, "{\"max_active\": 1"), 400, "invalid_json", null);
    assertRefused(
        api.put("/v1/rooms/" + NS + "/" + "x".repeat(60), "{\"max_active\": 1}"),
        400,
        "invalid_name",
        "room");
    assertThat(api.get(path).status()).isEqualTo(404);
    assertRefused(api.post(path + "/tickets", "{}"), 404, "not_found", null);
    assertRefused(api.get(path + "/jwks.json"), 404, "not_found", null);

    String room = room(api, NS, name, "\"max_active\": 1");
    assertRefused(api.get(room + "/tickets/nope"), 400, "invalid_name", "ticket");
    assertRefused(api.get(room + "/tickets/t" + "A".repeat(22)), 404, "not_found", null);
    assertRefused(
        api.post(room + "/tickets", "{\"subject\": \"" + "s".repeat(300) + "\"}"),
        400,
        "invalid_field",
        "subject");
    assertRefused(api.post(room + "/tickets", "{\"seat\": 1}"), 400, "unknown_field", "seat");
    assertRefused(api.post("/v1/passes/verify", "{\"pass\": \"x\"}"), 400, "invalid_field", "room");
    assertRefused(
        api.post("/v1/passes/verify", "{\"pass\": \"x\", \"room\": \"nope\"}"),
        400,
        "invalid_field",
        "room");
    assertRefused(
        api.post("/v1/passes/verify", "{\"pass\": \"a.b.c\", \"room\": \"wr/none\"}"),
        404,
        "not_found",
        null);
    assertRefused(api.delete(room + "/passes/garbage"), 400, "invalid_name", "jti");
    assertThat(api.get(room).json().path("waiting").asLong()).isZero();
  }

  @Test
  void aTokenOfAnotherNamespaceOrWithoutTheScopeIsRefused() {
    Api admin = server.admin();
    String room = room(admin, NS, name("auth"), "\"max_active\": 1");
    Api otherNs = admin.as(RoomFixtures.token(admin, "elsewhere", "[\"publish\", \"manage\"]", 0));
    Api publisher = admin.as(RoomFixtures.token(admin, NS, "[\"publish\"]", 0));
    assertThat(otherNs.post(room + "/tickets", "{}").status()).isEqualTo(403);
    assertThat(publisher.put(room, "{\"max_active\": 9}").status()).isEqualTo(403);
    assertThat(publisher.post(room + "/tickets", "{}").status()).isEqualTo(201);
    assertThat(admin.as(null).post(room + "/tickets", "{}").status()).isEqualTo(401);
  }

  static Reply verify(Api api, String pass, String room) {
    return api.post(
        "/v1/passes/verify", "{\"pass\": \"" + pass + "\", \"room\": \"" + room + "\"}");
  }

  static void assertRejected(Reply reply, int status, String reason) {
    assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
    assertThat(reply.field("reason")).as(reply.toString()).isEqualTo(reason);
  }

  static void assertRefused(Reply reply, int status, String code, String field) {
    assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
    assertThat(reply.field("error")).as(reply.toString()).isEqualTo(code);
    if (field != null) {
      assertThat(reply.field("field")).as(reply.toString()).isEqualTo(field);
    }
  }

  static PassRejectedException.Reason reasonOffline(String jwks, String token, String room) {
    try {
      PassVerifier.fromJwks(jwks).verify(token, room);
    } catch (PassRejectedException e) {
      return e.reason();
    }
    throw new AssertionError("accepted");
  }

  /** The token with its claims changed to another ticket, the signature kept. */
  static String altered(String token) {
    String[] parts = token.split("\\.");
    String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
    String changed = claims.replaceFirst("\"sub\":\"t", "\"sub\":\"u");
    return parts[0]
        + "."
        + Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(changed.getBytes(StandardCharsets.UTF_8))
        + "."
        + parts[2];
  }
}
