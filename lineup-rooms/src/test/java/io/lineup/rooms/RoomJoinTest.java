package io.lineup.rooms;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.RecordStore;
import io.lineup.testing.RedisServerExtension;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Joins at the service level: what a join answers and stores when many join a full room at once
 * (the answer's position comes from the publish when no admission ran in between).
 */
class RoomJoinTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static Lineup lineup;
  static Rooms rooms;

  @BeforeAll
  static void start() {
    lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build());
    rooms = new Rooms(lineup); // not started: joins admit by themselves
  }

  @AfterAll
  static void stop() {
    rooms.close();
    lineup.close();
  }

  static RoomKey aFullRoomOfOne() {
    RoomKey key = new RoomKey("shop", RedisServerExtension.uniqueName("sale"));
    rooms.room(key).put(RoomSpec.of(1).withGraceMs(600_000));
    return key;
  }

  @Test
  void concurrentJoinsOfAFullRoomAnswerEachTicketsExactPlaceAndStoreItsPollRecord()
      throws Exception {
    RoomKey key = aFullRoomOfOne();
    int joins = 300;
    ExecutorService pool = Executors.newFixedThreadPool(16);
    List<Ticket> answers = new ArrayList<>();
    try {
      List<Future<Ticket>> pending = new ArrayList<>();
      for (int i = 0; i < joins; i++) {
        pending.add(pool.submit(() -> rooms.room(key).join(JoinRequest.of(Caller.ADMIN))));
      }
      for (Future<Ticket> f : pending) {
        answers.add(f.get());
      }
    } finally {
      pool.shutdownNow();
    }

    RecordStore polls = lineup.records("room-polls");
    Set<Long> positions = new HashSet<>();
    int admitted = 0;
    for (Ticket answer : answers) {
      String ticket = answer.id();
      if (answer.status() == TicketStatus.ADMITTED) {
        admitted++;
        continue;
      }
      assertThat(answer.status()).isEqualTo(TicketStatus.WAITING);
      long position = answer.position();
      // Nobody was admitted after the first: every place stays as the join answered it.
      assertThat(lineup.position(key.queue(), ticket)).isEqualTo(position);
      assertThat(positions.add(position)).isTrue();
      assertThat(answer.priority()).isZero();
      assertThat(answer.joinedAt()).isPositive();
      assertThat(answer.graceMs()).isEqualTo(600_000);
      assertThat(polls.get(ticket))
          .hasValueSatisfying(text -> assertThat(text).startsWith(key + " "));
    }
    assertThat(admitted).isEqualTo(1);
    assertThat(positions).hasSize(joins - 1);
    assertThat(positions).allSatisfy(p -> assertThat(p).isBetween(0L, (long) joins - 2));
  }

  @Test
  void aJoinsPayloadIsWhatJacksonWritesWithAndWithoutAGrant() {
    ObjectNode plain = StoredJson.object();
    plain.put("joined_at", 1_700_000_000_123L);
    plain.put("priority", -7);
    assertThat(TicketJoins.joinPayload(1_700_000_000_123L, -7, null)).isEqualTo(plain.toString());

    ObjectNode granted = plain.deepCopy();
    granted.put("grant", "gAbc_-123");
    assertThat(TicketJoins.joinPayload(1_700_000_000_123L, -7, "gAbc_-123"))
        .isEqualTo(granted.toString());
  }

  @Test
  void idsAreTheirBytesInUnpaddedBase64UrlAsTheJdkWritesThem() {
    Random random = new Random(7);
    for (int length = 0; length <= 20; length++) {
      byte[] bytes = new byte[length];
      for (int round = 0; round < 50; round++) {
        random.nextBytes(bytes);
        assertThat(RoomIds.encode('g', bytes))
            .isEqualTo('g' + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
      }
    }
  }

  @Test
  void ticketIdsAreDistinctAndOfTheTicketFormAcrossManyDrawsOfRandomBytes() {
    RoomIds ids = new RoomIds();
    Set<String> seen = new HashSet<>();
    int count = RoomIds.IDS_PER_DRAW * 5 + 3;
    for (int i = 0; i < count; i++) {
      String id = ids.newId('t');
      assertThat(Rooms.isTicketId(id)).as(id).isTrue();
      seen.add(id);
    }
    assertThat(seen).hasSize(count);
  }
}
