package io.lineup.rooms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two instances of the room service on one Redis, each admitting and sweeping: what one instance
 * records about a ticket, the other does not undo.
 */
class RoomTwoInstancesTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static Lineup lineupA;
  static Lineup lineupB;
  static Rooms roomsA;
  static Rooms roomsB;

  @BeforeAll
  static void start() {
    lineupA = Lineup.connect(LineupOptions.builder(redis.uri()).build());
    lineupB = Lineup.connect(LineupOptions.builder(redis.uri()).build());
    roomsA = new Rooms(lineupA);
    roomsB = new Rooms(lineupB);
    roomsA.start();
    roomsB.start();
  }

  @AfterAll
  static void stop() {
    roomsA.close();
    roomsB.close();
    lineupA.close();
    lineupB.close();
  }

  @Test
  void everyTicketThatStoppedPollingReadsAbandonedWhenBothInstancesSweep() {
    RoomKey key = new RoomKey("two", "abandon");
    roomsA.room(key).put(RoomSpec.of(1).withGraceMs(1000).withPassTtlMs(600_000));
    // The one slot is taken for the whole test: every later ticket waits until swept.
    String holder = roomsA.room(key).join(JoinRequest.of(Caller.ADMIN)).id();
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> roomsA.room(key).poll(holder).status() == TicketStatus.ADMITTED);
    await().atMost(Duration.ofSeconds(20)).until(() -> roomsB.room(key).spec() != null);

    List<String> tickets = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      Rooms joinedOn = i % 2 == 0 ? roomsA : roomsB;
      tickets.add(joinedOn.room(key).join(JoinRequest.of(Caller.ADMIN)).id());
    }

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() ->
            tickets.stream()
                .allMatch(t -> roomsA.room(key).ticket(t).status() == TicketStatus.GONE));
    // Read on both instances once every sweep had a round or two more at every ticket: a marker
    // one instance's sweep deleted would be missing for good by then.
    await()
        .pollDelay(Duration.ofMillis(1500))
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> {
          Map<String, GoneReason> readOnA = new LinkedHashMap<>();
          Map<String, GoneReason> readOnB = new LinkedHashMap<>();
          for (String t : tickets) {
            readOnA.put(t, roomsA.room(key).ticket(t).reason());
            readOnB.put(t, roomsB.room(key).ticket(t).reason());
          }
          assertThat(readOnA).containsOnlyKeys(tickets).doesNotContainValue(GoneReason.LEFT);
          assertThat(readOnA.values()).containsOnly(GoneReason.ABANDONED);
          assertThat(readOnB.values()).containsOnly(GoneReason.ABANDONED);
        });
  }
}
