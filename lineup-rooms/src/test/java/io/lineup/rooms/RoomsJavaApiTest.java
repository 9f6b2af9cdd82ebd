package io.lineup.rooms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.pass.Jwks;
import io.lineup.pass.Pass;
import io.lineup.pass.PassRejectedException;
import io.lineup.pass.PassVerifier;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The rooms used from Java, without HTTP: a room made, joined, its line moving as passes are given
 * back, a priority grant, and the pass verified online and offline; the errors are typed.
 */
class RoomsJavaApiTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static Lineup lineup;
  static Rooms rooms;

  @BeforeAll
  static void start() {
    lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build());
    rooms = new Rooms(lineup);
    rooms.start();
  }

  @AfterAll
  static void stop() {
    rooms.close();
    lineup.close();
  }

  static Room aRoomOfOne() {
    Room room = rooms.room(new RoomKey("java", RedisServerExtension.uniqueName("sale")));
    assertThat(room.put(RoomSpec.of(1).withGraceMs(60_000))).as("created").isTrue();
    return room;
  }

  @Test
  void aWaitingTicketMovesUpAndIsAdmittedWhenTheOneBeforeItLeaves() {
    Room room = aRoomOfOne();
    Ticket first = room.join(JoinRequest.of(Caller.ADMIN));
    Ticket second = room.join(JoinRequest.of(Caller.ADMIN));

    await().until(() -> room.poll(first.id()).status() == TicketStatus.ADMITTED);
    Ticket waiting = room.poll(second.id());
    assertThat(waiting.status()).isEqualTo(TicketStatus.WAITING);
    assertThat(waiting.position()).isZero();
    assertThat(room.info()).hasValueSatisfying(info -> assertThat(info.active()).isEqualTo(1));

    assertThat(room.leave(first.id()).previous()).isEqualTo(TicketStatus.ADMITTED);
    await().until(() -> room.poll(second.id()).status() == TicketStatus.ADMITTED);
    assertThat(room.poll(first.id()).reason()).isEqualTo(GoneReason.RELEASED);
  }

  @Test
  void anAdmittedTicketsPassVerifiesOnlineAndOfflineUntilRevoked() throws Exception {
    Room room = aRoomOfOne();
    Ticket ticket = room.join(JoinRequest.of(Caller.ADMIN));
    await().until(() -> room.poll(ticket.id()).status() == TicketStatus.ADMITTED);
    AdmittedPass pass = room.poll(ticket.id()).pass();

    Pass online = rooms.verifyPass(room.key(), pass.token());
    assertThat(online.ticket()).isEqualTo(ticket.id());
    assertThat(online.id()).isEqualTo(pass.id());
    Pass offline =
        PassVerifier.of(Jwks.parse(room.jwks())).verify(pass.token(), room.key().toString());
    assertThat(offline.id()).isEqualTo(pass.id());

    room.revoke(pass.id());
    assertThatThrownBy(() -> rooms.verifyPass(room.key(), pass.token()))
        .isInstanceOfSatisfying(
            PassRefusedException.class,
            e -> assertThat(e.reason()).isEqualTo(PassRejectedException.Reason.REVOKED));
  }

  static AdmittedPass admittedPassOfAShortLivedRoom(Room room, long passTtlMs) {
    room.put(RoomSpec.of(1).withGraceMs(60_000).withPassTtlMs(passTtlMs));
    Ticket ticket = room.join(JoinRequest.of(Caller.ADMIN));
    return await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> room.poll(ticket.id()).pass(), pass -> pass != null);
  }

  @Test
  void aPassLivesItsPassTtlToTheMillisecondWhereLineupChecksAndItsExpClaimRoundsUp()
      throws Exception {
    Room room = rooms.room(new RoomKey("java", RedisServerExtension.uniqueName("ttl")));
    AdmittedPass pass = admittedPassOfAShortLivedRoom(room, 2_000);
    String ticket = pass.id().substring(0, pass.id().indexOf('.'));

    assertThat(pass.expiresAt() - pass.admittedAt()).isEqualTo(2_000);
    // Offline the claim's whole seconds: never before the lifetime ends, at most 1 s after.
    Pass offline =
        PassVerifier.of(Jwks.parse(room.jwks())).verify(pass.token(), room.key().toString());
    assertThat(offline.expiresAt().toEpochMilli())
        .isBetween(pass.expiresAt(), pass.expiresAt() + 999);
    assertThat(offline.expiresAt().toEpochMilli() % 1000).isZero();
    // Online and in the ticket's state: the lease's deadline itself.
    List<Long> admittedReadsStartedAt = new ArrayList<>();
    Ticket gone =
        await()
            .atMost(Duration.ofSeconds(30))
            .pollDelay(Duration.ZERO)
            .pollInterval(Duration.ofMillis(50))
            .until(
                () -> {
                  long startedAt = System.currentTimeMillis();
                  Ticket read = room.ticket(ticket);
                  if (read.status() == TicketStatus.ADMITTED) {
                    admittedReadsStartedAt.add(startedAt);
                  }
                  return read;
                },
                read -> read.status() == TicketStatus.GONE);
    assertThat(gone.reason()).isEqualTo(GoneReason.EXPIRED);
    assertThat(admittedReadsStartedAt)
        .as("read admitted only before the pass's deadline")
        .allSatisfy(at -> assertThat(at).isLessThan(pass.expiresAt()));
    Pass online = rooms.verifyPass(room.key(), pass.token());
    assertThat(online.expiresAt().toEpochMilli()).isEqualTo(pass.expiresAt());
  }

  @Test
  void aPassExpiredWithinTheLeewayVerifiesOnlineAndAfterItIsRefusedAsExpiredNeverAsRevoked() {
    Room room = rooms.room(new RoomKey("java", RedisServerExtension.uniqueName("leeway")));
    AdmittedPass pass = admittedPassOfAShortLivedRoom(room, 1_000);
    // The engine freed the slot (the lease ran out): the ticket no longer holds it.
    await().atMost(Duration.ofSeconds(30)).until(() -> room.info().orElseThrow().active() == 0);

    List<String> outcomes = new ArrayList<>();
    await()
        .atMost(Duration.ofSeconds(30))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(200))
        .until(() -> {
          String outcome;
          try {
            rooms.verifyPass(room.key(), pass.token());
            outcome = "valid";
          } catch (PassRefusedException e) {
            outcome = e.reason().name();
          }
          long answeredAt = System.currentTimeMillis();
          // Answered within the leeway after the expiry: the check was made within it too.
          boolean withinLeeway =
              answeredAt < pass.expiresAt() + PassVerifier.DEFAULT_LEEWAY.toMillis();
          outcomes.add(outcome + (withinLeeway ? " within the leeway" : ""));
          return outcome.equals("EXPIRED");
        });
    assertThat(outcomes)
        .isNotEmpty()
        .allSatisfy(
            outcome -> assertThat(outcome).isIn("valid", "valid within the leeway", "EXPIRED"));
  }

  @Test
  void aTicketWhosePassWasRevokedReadsGoneWithReasonRevokedAndOneGivenBackReleased() {
    Room room = aRoomOfOne();
    Ticket revokedOne = room.join(JoinRequest.of(Caller.ADMIN));
    Ticket next = room.join(JoinRequest.of(Caller.ADMIN));
    AdmittedPass pass = await().until(() -> room.poll(revokedOne.id()).pass(), p -> p != null);

    room.revoke(pass.id());

    Ticket read = room.poll(revokedOne.id());
    assertThat(read.status()).isEqualTo(TicketStatus.GONE);
    assertThat(read.reason()).isEqualTo(GoneReason.REVOKED);
    assertThat(read.reason().wireName()).isEqualTo("revoked");
    await().until(() -> room.poll(next.id()).status() == TicketStatus.ADMITTED);
    room.leave(next.id());
    assertThat(room.poll(next.id()).reason()).isEqualTo(GoneReason.RELEASED);
  }

  @Test
  void beforeAnyAdmissionIsMeasuredAWaitingTicketsEtaComesFromTheRoomsSlotsAndPassLifetime() {
    Room room = rooms.room(new RoomKey("java", RedisServerExtension.uniqueName("eta")));
    room.put(RoomSpec.of(1).withGraceMs(600_000).withPassTtlMs(20_000));
    Ticket holder = room.join(JoinRequest.of(Caller.ADMIN));
    await().until(() -> room.poll(holder.id()).status() == TicketStatus.ADMITTED);
    Ticket last = null;
    for (int i = 0; i < 17; i++) {
      last = room.join(JoinRequest.of(Caller.ADMIN));
    }

    Ticket read = room.poll(last.id());

    assertThat(read.position()).isEqualTo(16);
    // One slot turning over at worst every 20 s: 17 lifetimes at worst, half that likely, and
    // every pass may be given back at once.
    assertThat(read.eta().high()).isEqualTo(Duration.ofSeconds(340));
    assertThat(read.eta().point()).isEqualTo(Duration.ofSeconds(170));
    assertThat(read.eta().low()).isEqualTo(Duration.ZERO);
    assertThat(last.eta()).as("the join's answer").isEqualTo(read.eta());
    // A quarter of the point, as the low end is 0: the longest interval, not the shortest.
    assertThat(read.pollAfterMs()).isEqualTo(Rooms.MAX_POLL_MS);
  }

  @Test
  void aGrantMovesItsHolderAheadOnceAndIsLoggedWithItsTicket() {
    Room room = aRoomOfOne();
    room.join(JoinRequest.of(Caller.ADMIN)); // holds the one slot
    Ticket plain = room.join(JoinRequest.of(Caller.ADMIN));
    Grant grant =
        room.createGrant(new GrantRequest(Caller.ADMIN, 10, 60_000, "alice", "support case"));

    Caller front = new Caller(false, 0, "front-token-1");
    Ticket granted = room.join(new JoinRequest(front, grant.id(), "alice", null));

    assertThat(granted.priority()).isEqualTo(10);
    assertThat(room.poll(granted.id()).position()).isZero();
    assertThat(room.poll(plain.id()).position()).isEqualTo(1);
    assertThat(room.grants())
        .singleElement()
        .satisfies(entry -> {
          assertThat(entry.grant().id()).isEqualTo(grant.id());
          assertThat(entry.usedByTicket()).isEqualTo(granted.id());
          assertThat(entry.usedByToken()).isEqualTo("front-token-1");
        });
    assertThatThrownBy(() -> room.join(new JoinRequest(Caller.ADMIN, grant.id(), "alice", null)))
        .isInstanceOf(GrantRefusedException.class)
        .hasMessage("the grant was used already");
  }

  @Test
  void theErrorsAreTypedAndSayWhat() {
    Room missing = rooms.room(new RoomKey("java", "no-such-room"));
    assertThatThrownBy(() -> missing.join(JoinRequest.of(Caller.ADMIN)))
        .isInstanceOf(RoomNotFoundException.class)
        .hasMessage("no room no-such-room in namespace java");

    Room room = aRoomOfOne();
    assertThatThrownBy(() -> room.poll("t" + "A".repeat(22)))
        .isInstanceOf(TicketNotFoundException.class);
    assertThatThrownBy(() -> room.poll("nope")).isInstanceOf(MalformedIdException.class);
    Caller low = new Caller(false, 5, "tok-1");
    assertThatThrownBy(() -> room.join(new JoinRequest(low, null, null, 9)))
        .isInstanceOfSatisfying(
            PriorityNotAllowedException.class, e -> assertThat(e.maxPriority()).isEqualTo(5));
  }

  @Test
  void theAdminJoinsAtAnyPriorityOfTheRangeAndAPriorityOutsideItIsRefused() {
    Room room = aRoomOfOne();

    assertThat(room.join(new JoinRequest(Caller.ADMIN, null, null, 200)).priority()).isEqualTo(200);
    assertThat(room.join(new JoinRequest(Caller.ADMIN, null, null, 255)).priority()).isEqualTo(255);
    assertThat(room.join(new JoinRequest(Caller.ADMIN, null, null, -255)).priority())
        .isEqualTo(-255);
    assertThat(room.join(JoinRequest.of(Caller.ADMIN)).priority()).isZero();
    assertThatThrownBy(() -> room.join(new JoinRequest(Caller.ADMIN, null, null, 256)))
        .isInstanceOfSatisfying(
            InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("priority"));
    Caller token = new Caller(false, 5, "tok-2");
    assertThatThrownBy(() -> room.join(new JoinRequest(token, null, null, -256)))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void aRoomMadeOnOneInstanceIsKnownToAnotherWithinASync() {
    try (Rooms other = new Rooms(lineup)) {
      Room here = aRoomOfOne();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> other.room(here.key()).spec().maxActive() == 1);
      here.delete();
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() ->
              assertThatThrownBy(() -> other.room(here.key()).spec())
                  .isInstanceOf(RoomNotFoundException.class));
    }
  }
}
