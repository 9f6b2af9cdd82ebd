package io.lineup.rooms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.RecordStore;
import io.lineup.pass.PassRejectedException;
import io.lineup.testing.RedisServerExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A room's life across two instances on one Redis: a delete through one ends the room everywhere
 * (joins refused, tickets ended with reason {@code room_deleted}, passes refused online, keys gone
 * for good), also on an instance whose copy of the settings still shows the room (held stale here
 * with an hour-long sync, so the stale path runs every time); a room put again under the name is
 * the next generation and starts empty.
 */
class RoomLifeTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static Lineup lineupA;
  static Lineup lineupB;
  static Rooms a;
  static RecordStore keys;

  @BeforeAll
  static void start() {
    lineupA = Lineup.connect(LineupOptions.builder(redis.uri()).build());
    lineupB = Lineup.connect(LineupOptions.builder(redis.uri()).build());
    a = new Rooms(lineupA);
    a.start();
    keys = lineupA.records("room-keys");
  }

  @AfterAll
  static void stop() {
    a.close();
    lineupA.close();
    lineupB.close();
  }

  /** Instance B, whose copy of the settings is read only at its start (and on its own writes). */
  static Rooms staleInstance() {
    return new Rooms(lineupB, Duration.ofHours(1));
  }

  static RoomKey aRoom(String name) {
    RoomKey key = new RoomKey("life", RedisServerExtension.uniqueName(name));
    assertThat(a.room(key).put(RoomSpec.of(1).withGraceMs(60_000))).as("created").isTrue();
    return key;
  }

  static Ticket join(Rooms rooms, RoomKey key) {
    return rooms.room(key).join(JoinRequest.of(Caller.ADMIN));
  }

  /** A room whose one slot is held by an admitted ticket (pass fetched) and two waiting behind. */
  static List<Ticket> aBusyRoom(RoomKey key) {
    List<Ticket> tickets = new ArrayList<>();
    Ticket holder = join(a, key);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> a.room(key).poll(holder.id()).status() == TicketStatus.ADMITTED);
    tickets.add(a.room(key).poll(holder.id()));
    tickets.add(join(a, key));
    tickets.add(join(a, key));
    return tickets;
  }

  @Test
  void aDeleteThroughOneInstanceEndsTheRoomOnAnInstanceThatHasNotSeenIt() {
    RoomKey key = aRoom("deleted");
    List<Ticket> tickets = aBusyRoom(key);
    try (Rooms b = staleInstance()) {
      Room throughB = b.room(key);
      assertThat(throughB.spec()).as("B knows the room").isNotNull();
      assertThat(throughB.jwks()).contains("OKP");

      assertThat(a.room(key).delete()).isTrue();

      assertThat(throughB.spec()).as("B's copy still shows the room").isNotNull();
      long published = publishedTo(key);
      assertThatThrownBy(() -> join(b, key)).isInstanceOf(RoomNotFoundException.class);
      assertThat(lineupA.stats(key.queue()).ready()).as("B's join left no ticket").isZero();
      assertThat(publishedTo(key)).as("B's join wrote no ticket at all").isEqualTo(published);
      assertThat(lineupA.stats(key.queue()).leased()).as("no slot held").isZero();
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> assertThatThrownBy(throughB::jwks).isInstanceOf(RoomNotFoundException.class));
      assertThatThrownBy(throughB::rotateKeys).isInstanceOf(RoomNotFoundException.class);
      assertThatThrownBy(() -> b.signingKeys().rotate(key, RoomSpec.of(1), 1))
          .as("B's rotation with its view of the room is refused")
          .isInstanceOf(RoomNotFoundException.class);
      assertThatThrownBy(() -> b.signingKeys().keySet(key, true))
          .as("B's key creation is refused")
          .isInstanceOf(RoomNotFoundException.class);
      assertThat(keys.get(key.toString()))
          .as("no signing key for the room in Redis")
          .hasValueSatisfying(
              text -> assertThat(text).doesNotContain("\"current\"").doesNotContain("\"d\""));

      for (Ticket t : tickets) {
        for (Rooms instance : List.of(a, b)) {
          Ticket read = instance.room(key).ticket(t.id());
          assertThat(read.status()).as(t.id()).isEqualTo(TicketStatus.GONE);
          assertThat(read.reason()).as(t.id()).isEqualTo(GoneReason.ROOM_DELETED);
        }
      }
      String pass = tickets.get(0).pass().token();
      for (Rooms instance : List.of(a, b)) {
        assertThatThrownBy(() -> instance.verifyPass(key, pass))
            .isInstanceOfSatisfying(
                PassRefusedException.class,
                e -> assertThat(e.reason()).isEqualTo(PassRejectedException.Reason.REVOKED));
      }
    }
  }

  @Test
  void aRoomPutAgainAfterItsDeleteStartsEmptyAndItsPredecessorsTicketsReadDeleted() {
    RoomKey key = aRoom("again");
    List<Ticket> old = aBusyRoom(key);
    String oldPass = old.get(0).pass().token();

    assertThat(lineupA.fence(key.queue())).as("generation 1's fence").hasValue(1);
    assertThat(a.room(key).delete()).isTrue();
    assertThat(lineupA.fence(key.queue()))
        .as("a deleted room's fence, which no generation has")
        .hasValue(TicketJoins.DELETED_FENCE);
    assertThat(a.room(key).put(RoomSpec.of(1).withGraceMs(60_000))).as("created").isTrue();
    assertThat(lineupA.fence(key.queue())).as("generation 2's fence").hasValue(2);

    RoomInfo info = a.room(key).info().orElseThrow();
    assertThat(info.active()).isZero();
    assertThat(info.waiting()).isZero();
    Ticket first = join(a, key);
    assertThat(first.status()).isIn(TicketStatus.WAITING, TicketStatus.ADMITTED);
    if (first.status() == TicketStatus.WAITING) {
      assertThat(first.position()).isZero();
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> a.room(key).poll(first.id()).status() == TicketStatus.ADMITTED);
    Ticket second = join(a, key);
    assertThat(second.status()).isEqualTo(TicketStatus.WAITING);
    assertThat(second.position()).as("behind the one admitted, nobody else").isZero();

    for (Ticket t : old) {
      Ticket read = a.room(key).ticket(t.id());
      assertThat(read.status()).as(t.id()).isEqualTo(TicketStatus.GONE);
      assertThat(read.reason()).as(t.id()).isEqualTo(GoneReason.ROOM_DELETED);
    }
    assertThatThrownBy(() -> a.verifyPass(key, oldPass)).isInstanceOf(PassRefusedException.class);
  }

  @Test
  void aJoinThroughAStaleInstanceNeverLandsInTheRoomThatReplacedTheDeletedOne() {
    RoomKey key = aRoom("successor");
    try (Rooms b = staleInstance()) {
      assertThat(b.room(key).spec()).as("B knows generation 1").isNotNull();
      assertThat(a.room(key).delete()).isTrue();
      // Generation 2 refuses joins while full; B's copy still shows generation 1, which queued.
      RoomSpec rejecting =
          new RoomSpec(1, 0, 60_000, false, RoomSpec.Method.REJECT, 0, 60_000, false);
      assertThat(a.room(key).put(rejecting)).isTrue();
      Ticket holder = join(a, key);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> a.room(key).poll(holder.id()).status() == TicketStatus.ADMITTED);

      // B's join with its view of generation 1 adds a ticket, finds generation 2 after it, ends
      // its ticket as generation 1's and joins generation 2 instead, which is full.
      long published = publishedTo(key);
      assertThatThrownBy(() -> join(b, key)).isInstanceOf(RoomFullException.class);
      assertThat(lineupA.stats(key.queue()).ready()).as("nobody waits").isZero();
      assertThat(publishedTo(key))
          .as("the fence refused B's generation-1 ticket before anything was written")
          .isEqualTo(published);
      assertThat(b.room(key).spec().method())
          .as("B read the settings again")
          .isEqualTo(RoomSpec.Method.REJECT);

      assertThatThrownBy(() -> b.signingKeys().rotate(key, RoomSpec.of(1), 1))
          .as("B's rotation of generation 1's keys is refused")
          .isInstanceOf(RoomNotFoundException.class);
      assertThat(a.room(key).jwks()).as("generation 2's keys are still published").contains("OKP");
    }
  }

  @Test
  void aGrantOfADeletedRoomIsRefusedByTheRoomPutAgainUnderItsName() {
    RoomKey key = aRoom("grant");
    Grant grant = a.room(key).createGrant(new GrantRequest(Caller.ADMIN, 5, 60_000, null, null));

    assertThat(a.room(key).delete()).isTrue();
    assertThat(a.room(key).put(RoomSpec.of(1))).isTrue();

    assertThat(a.room(key).grants()).isEmpty();
    assertThatThrownBy(
            () -> a.room(key).join(new JoinRequest(Caller.ADMIN, grant.id(), null, null)))
        .isInstanceOf(GrantRefusedException.class);
    assertThat(lineupA.stats(key.queue()).ready()).isZero();
  }

  @Test
  void aStaleInstanceCannotMakeKeysForADeletedRoomThatNeverHadAny() {
    RoomKey key = new RoomKey("life", RedisServerExtension.uniqueName("keyless"));
    a.room(key).put(RoomSpec.of(1));
    keys.delete(key.toString()); // a room made before keys were made with it
    try (Rooms b = staleInstance()) {
      assertThat(a.room(key).delete()).isTrue();
      assertThatThrownBy(() -> b.signingKeys().keySet(key, true))
          .isInstanceOf(RoomNotFoundException.class);
      assertThat(keys.get(key.toString()))
          .hasValueSatisfying(text -> assertThat(text).doesNotContain("\"current\""));
    }
  }

  @Test
  void aRoomPutBeforeRoomsSetFencesTakesJoinsAndIsGivenItsGeneration() throws IOException {
    RoomKey key = aRoom("unfenced");
    removeFence(key); // a room put before rooms set their queue's fence

    Ticket joined = join(a, key);

    assertThat(joined.status()).isIn(TicketStatus.WAITING, TicketStatus.ADMITTED);
    assertThat(lineupA.fence(key.queue())).hasValue(1);
    assertThat(publishedTo(key)).as("one ticket written").isEqualTo(1);
  }

  @Test
  void aRoomPutBeforeRoomsSetFencesTakesAJoinWithAGrantUsedOnce() throws IOException {
    RoomKey key = aRoom("unfenced-grant");
    Grant grant = a.room(key).createGrant(new GrantRequest(Caller.ADMIN, 5, 60_000, null, null));
    removeFence(key);

    Ticket joined = a.room(key).join(new JoinRequest(Caller.ADMIN, grant.id(), null, null));

    assertThat(joined.status()).isIn(TicketStatus.WAITING, TicketStatus.ADMITTED);
    assertThat(publishedTo(key)).as("one ticket written").isEqualTo(1);
    assertThat(lineupA.fence(key.queue())).hasValue(1);
  }

  @Test
  void aDeletedRoomPutBeforeRoomsSetFencesRefusesAStaleJoinWithoutATrace() throws IOException {
    RoomKey key = aRoom("unfenced-deleted");
    removeFence(key);
    try (Rooms b = staleInstance()) {
      assertThat(b.room(key).spec()).as("B knows the room").isNotNull();
      assertThat(a.room(key).delete()).isTrue();

      assertThatThrownBy(() -> join(b, key)).isInstanceOf(RoomNotFoundException.class);

      assertThat(publishedTo(key)).isZero();
      assertThat(lineupA.fence(key.queue())).hasValue(TicketJoins.DELETED_FENCE);
    }
  }

  @Test
  void aPreQueueOpenedAfterTheRoomWasReplacedPutsNoneOfItsTicketsInTheNewLine() {
    RoomKey key = new RoomKey("life", RedisServerExtension.uniqueName("prequeue"));
    long eventStart = System.currentTimeMillis() + 3_600_000;
    RoomSpec spec =
        new RoomSpec(1, 0, 60_000, false, RoomSpec.Method.RANDOM, eventStart, 60_000, false);
    assertThat(a.room(key).put(spec)).isTrue();
    for (int i = 0; i < 3; i++) {
      join(a, key);
    }
    long generation = lineupA.fence(key.queue()).orElseThrow();
    // What a delete and a put through another instance leave between this instance's read of the
    // room and its publish: the queue's fence names the next generation.
    lineupA.setFence(key.queue(), generation + 1);

    try (RoomSettingsStore settings = new RoomSettingsStore(lineupA, Duration.ofHours(1))) {
      PreQueue preQueue = new PreQueue(lineupA, settings);
      preQueue.open(key, spec, eventStart);
      assertThat(lineupA.stats(key.queue()).ready()).as("nobody entered the line").isZero();
      assertThat(publishedTo(key)).as("nothing was written to the queue").isZero();
      assertThat(preQueue.size(key)).as("left for the deletion to end").isEqualTo(3);
    }
  }

  /** How many jobs were ever written to the room's queue (its engine counter). */
  static long publishedTo(RoomKey key) {
    return lineupA.stats(key.queue()).counters().getOrDefault("published", 0L);
  }

  /** Removes the fence of the room's queue, as a room put before fences has none. */
  static void removeFence(RoomKey key) throws IOException {
    String meta = "lu:{" + key.queue().namespace() + "/" + key.queue().name() + "}:meta";
    assertThat(redis.process().command("HDEL " + meta + " fence")).isEqualTo(":1");
    assertThat(lineupA.fence(key.queue())).isEmpty();
  }
}
