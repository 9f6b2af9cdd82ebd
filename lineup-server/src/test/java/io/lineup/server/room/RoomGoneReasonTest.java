package io.lineup.server.room;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.RecordStore;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.Json;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Why a ticket is gone: {@code abandoned} when the sweep dropped it for not polling within the
 * grace, {@code left} when its user left, including when a poll that read the ticket's record just
 * before the sweep dropped it wrote that record back over the sweep's marker (seen under load).
 */
class RoomGoneReasonTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static Lineup lineup;
  static RoomService rooms;
  static RecordStore polls;

  @BeforeAll
  static void start() {
    lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build());
    rooms = new RoomService(lineup);
    rooms.start();
    polls = lineup.records("room-polls");
  }

  @AfterAll
  static void stop() {
    rooms.close();
    lineup.close();
  }

  /** A room of one slot, taken by a ticket whose pass was fetched: every later ticket waits. */
  static RoomKey aFullRoom(String name) throws Exception {
    RoomKey key = new RoomKey("gone", name);
    rooms.putRoom(
        key,
        RoomSpec.parse(
            Json.MAPPER.readTree(
                "{\"max_active\": 1, \"grace_ms\": 1000, \"pass_ttl_ms\": 60000}")));
    String holder = join(key);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> rooms.poll(key, holder).path("status").asText().equals("admitted"));
    return key;
  }

  static String join(RoomKey key) {
    return rooms.join(key, Json.object(), Principal.ADMIN).path("ticket").asText();
  }

  @Test
  void aTicketDroppedWhileALatePollWroteItsRecordBackReadsAsAbandonedFromThenOn() throws Exception {
    RoomKey key = aFullRoom("race");
    String ticket = join(key);
    String waitingRecord = polls.get(ticket).orElseThrow();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> polls.get(ticket).filter(PollRecord::isAbandonedMarker).isPresent());

    // What the late poll's write leaves: its record over the sweep's marker.
    polls.put(ticket, PollRecord.parse(waitingRecord).polledAt(System.currentTimeMillis()).text());
    ObjectNode view = rooms.poll(key, ticket);

    assertThat(view.path("status").asText()).isEqualTo("gone");
    assertThat(view.path("reason").asText()).isEqualTo("abandoned");
    assertThat(polls.get(ticket))
        .as("the marker is back")
        .hasValueSatisfying(text -> assertThat(PollRecord.isAbandonedMarker(text)).isTrue());
    // Sweeps later (every 250 ms), the ticket still reads as dropped.
    await()
        .pollDelay(Duration.ofMillis(1500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> rooms.poll(key, ticket).path("reason").asText().equals("abandoned"));
  }

  @Test
  void aTicketNotPolledWithinTheGraceReadsAsAbandoned() throws Exception {
    RoomKey key = aFullRoom("quiet");
    String ticket = join(key);

    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> polls.get(ticket).filter(PollRecord::isAbandonedMarker).isPresent());

    ObjectNode view = rooms.poll(key, ticket);
    assertThat(view.path("status").asText()).isEqualTo("gone");
    assertThat(view.path("reason").asText()).isEqualTo("abandoned");
  }

  @Test
  void aTicketWhoseUserLeftReadsAsLeft() throws Exception {
    RoomKey key = aFullRoom("left");
    String ticket = join(key);

    assertThat(rooms.leave(key, ticket).path("previous_status").asText()).isEqualTo("waiting");

    ObjectNode view = rooms.poll(key, ticket);
    assertThat(view.path("status").asText()).isEqualTo("gone");
    assertThat(view.path("reason").asText()).isEqualTo("left");
  }
}
