package io.lineup.server;

import static io.lineup.server.RoomFixtures.joinId;
import static io.lineup.server.RoomFixtures.name;
import static io.lineup.server.RoomFixtures.poll;
import static io.lineup.server.RoomFixtures.room;
import static io.lineup.server.RoomFixtures.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** An operator suspends and resumes a room; each answer is the room as stored afterwards. */
class RoomControlsTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "room-controls";

  @Test
  void aSuspendedRoomKeepsItsLineAndAdmitsOnceResumed() {
    Api admin = server.admin();
    String room = room(admin, NS, name("suspend"), "\"max_active\": 5, \"suspended\": true");
    String ticket = joinId(admin, room);

    Reply suspended = admin.post(room + "/suspend", "");
    assertThat(suspended.status()).as(suspended.toString()).isEqualTo(200);
    assertThat(suspended.json().path("suspended").asBoolean()).isTrue();
    assertThat(suspended.json().path("waiting").asLong()).isEqualTo(1);

    Reply resumed = admin.post(room + "/resume", "");
    assertThat(resumed.status()).as(resumed.toString()).isEqualTo(200);
    assertThat(resumed.json().path("suspended").asBoolean()).isFalse();
    assertThat(admin.get(room).json().path("suspended").asBoolean()).isFalse();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> poll(admin, room, ticket).path("status").asText().equals("admitted"));

    Reply again = admin.post(room + "/suspend", "");
    assertThat(again.json().path("suspended").asBoolean()).isTrue();
    assertThat(again.json().path("max_active").asInt()).as("other settings kept").isEqualTo(5);
  }

  @Test
  void theWaitingTicketsArePagedInAdmissionOrder() {
    Api admin = server.admin();
    String room = room(admin, NS, name("line"), "\"max_active\": 1, \"suspended\": true");
    List<String> joined = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      joined.add(joinId(admin, room));
    }

    Reply first = admin.get(room + "/tickets?limit=2");
    assertThat(first.status()).as(first.toString()).isEqualTo(200);
    assertThat(ids(first.json())).containsExactlyElementsOf(joined.subList(0, 2));
    assertThat(first.json().path("tickets").get(1).path("position").asLong()).isEqualTo(1);
    String cursor = first.field("next_cursor");
    // The first ticket leaves: the next page still begins right after the second.
    admin.delete(room + "/tickets/" + joined.get(0));
    JsonNode second = admin.get(room + "/tickets?limit=2&cursor=" + cursor).json();
    assertThat(ids(second)).containsExactly(joined.get(2));
    assertThat(second.path("next_cursor").isNull()).isTrue();

    Reply bad = admin.get(room + "/tickets?cursor=nope");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.field("field")).isEqualTo("cursor");
    String ns = NS + "-line";
    Api reader = admin.as(token(admin, ns, "[\"read\"]", 0));
    Api publisher = admin.as(token(admin, ns, "[\"publish\"]", 0));
    String theirs = room(admin, ns, name("line"), "\"max_active\": 1");
    assertThat(reader.get(theirs + "/tickets").status()).isEqualTo(200);
    assertThat(publisher.get(theirs + "/tickets").status()).isEqualTo(403);
  }

  private static List<String> ids(JsonNode page) {
    List<String> ids = new ArrayList<>();
    page.path("tickets").forEach(t -> ids.add(t.path("ticket").asText()));
    return ids;
  }

  @Test
  void aReadTokenSeesTheRoomButCannotSuspendOrResumeIt() {
    Api admin = server.admin();
    String ns = NS + "-read";
    Api reader = admin.as(token(admin, ns, "[\"read\"]", 0));
    String room = room(admin, ns, name("read"), "\"max_active\": 1");
    assertThat(reader.get(room).status()).isEqualTo(200);
    for (String action : new String[] {"/suspend", "/resume"}) {
      Reply refused = reader.post(room + action, "");
      assertThat(refused.status()).as(action).isEqualTo(403);
      assertThat(refused.field("error")).isEqualTo("forbidden");
    }
    assertThat(admin.get(room).json().path("suspended").asBoolean()).isFalse();
  }

  @Test
  void controlsOfAnUnknownOrMisnamedRoomAnswerJsonErrors() {
    Api admin = server.admin();
    Reply unknown = admin.post("/v1/rooms/" + NS + "/" + name("none") + "/suspend", "");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.field("error")).isIn("not_found", "room_not_found");
    Reply misnamed = admin.post("/v1/rooms/" + NS + "/..../resume", "");
    assertThat(misnamed.status()).isEqualTo(400);
    assertThat(misnamed.field("error")).isEqualTo("invalid_name");
  }
}
