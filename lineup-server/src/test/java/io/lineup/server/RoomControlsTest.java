package io.lineup.server;

import static io.lineup.server.RoomFixtures.joinId;
import static io.lineup.server.RoomFixtures.name;
import static io.lineup.server.RoomFixtures.poll;
import static io.lineup.server.RoomFixtures.room;
import static io.lineup.server.RoomFixtures.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
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
