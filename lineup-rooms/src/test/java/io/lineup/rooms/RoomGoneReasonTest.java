package io.lineup.rooms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.RecordStore;
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
  static Rooms rooms;
  static RecordStore polls;

  @BeforeAll
  static void start() {
    lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build());
    rooms = new Rooms(lineup);
    rooms.start();
    polls = lineup.records("room-polls");
  }

  @AfterAll
  static void stop() {
    rooms.close();
    lineup.close();
  }

  /** A room of one slot, taken by a ticket whose pass was fetched: every later ticket waits. */
  static RoomKey aFullRoom(String name) {
    RoomKey key = new RoomKey("gone", name);
    rooms.room(key).put(RoomSpec.of(1).withGraceMs(1000).withPassTtlMs(60000));
    String holder = join(key);
    await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> rooms.room(key).poll(holder).status() == TicketStatus.ADMITTED);
    return key;
  }

  static String join(RoomKey key) {
    return rooms.room(key).join(JoinRequest.of(Caller.ADMIN)).id();
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
    Ticket view = rooms.room(key).poll(ticket);

    assertThat(view.status()).isEqualTo(TicketStatus.GONE);
    assertThat(view.reason()).isEqualTo(GoneReason.ABANDONED);
    assertThat(polls.get(ticket))
        .as("the marker is back")
        .hasValueSatisfying(text -> assertThat(PollRecord.isAbandonedMarker(text)).isTrue());
    // Sweeps later (every 250 ms), the ticket still reads as dropped.
    await()
        .pollDelay(Duration.ofMillis(1500))
        .atMost(Duration.ofSeconds(5))
        .until(() -> rooms.room(key).poll(ticket).reason() == GoneReason.ABANDONED);
  }

  @Test
  void aTicketNotPolledWithinTheGraceReadsAsAbandoned() throws Exception {
    RoomKey key = aFullRoom("quiet");
    String ticket = join(key);

    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> polls.get(ticket).filter(PollRecord::isAbandonedMarker).isPresent());

    Ticket view = rooms.room(key).poll(ticket);
    assertThat(view.status()).isEqualTo(TicketStatus.GONE);
    assertThat(view.reason()).isEqualTo(GoneReason.ABANDONED);
  }

  @Test
  void aTicketWhoseUserLeftReadsAsLeft() throws Exception {
    RoomKey key = aFullRoom("left");
    String ticket = join(key);

    assertThat(rooms.room(key).leave(ticket).previous()).isEqualTo(TicketStatus.WAITING);

    Ticket view = rooms.room(key).poll(ticket);
    assertThat(view.status()).isEqualTo(TicketStatus.GONE);
    assertThat(view.reason()).isEqualTo(GoneReason.LEFT);
  }
}
