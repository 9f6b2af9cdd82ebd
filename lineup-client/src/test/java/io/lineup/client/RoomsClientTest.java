package io.lineup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.api.resource.Room;
import io.lineup.api.resource.Ticket;
import io.lineup.api.resource.TicketStatus;
import io.lineup.api.resource.VerifiedPass;
import io.lineup.pass.Pass;
import io.lineup.pass.PassVerifier;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Waiting rooms through the client, against a real server on a real Redis. */
class RoomsClientTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static TestServer server;
  static LineupClient admin;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
    admin = server.adminClient();
  }

  @AfterAll
  static void stop() {
    admin.close();
    server.close();
  }

  static RoomName roomWith(String prefix, RoomSettings settings) {
    RoomName room = RoomName.of("rooms", RedisServerExtension.uniqueName(prefix));
    admin.rooms().putRoom(room, settings);
    return room;
  }

  @Test
  void aRoomIsPutReadAndDeleted() {
    RoomName room =
        roomWith(
            "crud",
            RoomSettings.maxActive(3)
                .admitPerMinute(60)
                .passTtl(Duration.ofMinutes(2))
                .grace(Duration.ofSeconds(90))
                .renewable(true));

    Room read = admin.rooms().room(room);

    assertThat(read.namespace() + "/" + read.room()).isEqualTo(room.toString());
    assertThat(read.maxActive()).isEqualTo(3);
    assertThat(read.admitPerMinute()).isEqualTo(60);
    assertThat(read.passTtlMs()).isEqualTo(Duration.ofMinutes(2).toMillis());
    assertThat(read.graceMs()).isEqualTo(Duration.ofSeconds(90).toMillis());
    assertThat(read.renewable()).isTrue();
    assertThat(read.queueingMethod()).isEqualTo("fifo");
    assertThat(read.waiting()).isZero();
    assertThat(read.jwksUrl()).endsWith("/jwks.json");
    admin.rooms().deleteRoom(room);
    assertThatThrownBy(() -> admin.rooms().room(room)).isInstanceOf(NotFoundException.class);
  }

  @Test
  void aRoomIsSuspendedAndResumedKeepingItsOtherSettings() {
    RoomName room = roomWith("controls", RoomSettings.maxActive(4).admitPerMinute(30));

    Room suspended = admin.rooms().suspend(room);

    assertThat(suspended.suspended()).isTrue();
    assertThat(suspended.maxActive()).isEqualTo(4);
    assertThat(admin.rooms().room(room).suspended()).isTrue();
    assertThat(admin.rooms().resume(room).suspended()).isFalse();
    assertThat(admin.rooms().room(room).admitPerMinute()).isEqualTo(30);
  }

  @Test
  void theFirstTicketIsAdmittedWithAPassTheNextWaitsAndMovesUpWhenTheSlotIsGivenBack()
      throws Exception {
    RoomName room = roomWith("line", RoomSettings.maxActive(1));

    Ticket first = admin.rooms().join(room);
    Ticket second = admin.rooms().join(room);

    assertThat(first.status()).isEqualTo(TicketStatus.ADMITTED);
    assertThat(first.pass()).isNotBlank();
    assertThat(first.passExpiresAt()).isGreaterThan(first.admittedAt());
    assertThat(second.status()).isEqualTo(TicketStatus.WAITING);
    assertThat(second.position()).isZero();
    assertThat(second.pollAfterMs()).isPositive();
    // The pass checks offline with the room's JWKS and online with the server.
    Pass offline =
        PassVerifier.fromJwks(admin.rooms().jwks(room)).verify(first.pass(), room.toString());
    assertThat(offline.ticket()).isEqualTo(first.ticket());
    VerifiedPass online = admin.rooms().verifyPass(room, first.pass());
    assertThat(online.ticket()).isEqualTo(first.ticket());
    assertThat(online.passId()).isEqualTo(first.passId());
    assertThat(online.room()).isEqualTo(room.toString());

    assertThat(admin.rooms().leave(room, first.ticket())).isEqualTo(TicketStatus.ADMITTED);

    assertThatThrownBy(() -> admin.rooms().verifyPass(room, first.pass()))
        .isInstanceOfSatisfying(
            PassRejectedException.class, e -> assertThat(e.reason()).isEqualTo("revoked"));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> admin.rooms().ticket(room, second.ticket()).status() == TicketStatus.ADMITTED);
    Ticket gone = admin.rooms().ticket(room, first.ticket());
    assertThat(gone.status()).isEqualTo(TicketStatus.GONE);
    assertThat(gone.reason()).isEqualTo("released");
  }

  @Test
  void aLongPollWaitsForTheTicketToMoveAndAnswersWithItsAdmission() throws Exception {
    RoomName room = roomWith("long-poll", RoomSettings.maxActive(1));
    Ticket first = admin.rooms().join(room);
    Ticket second = admin.rooms().join(room);
    assertThat(second.status()).isEqualTo(TicketStatus.WAITING);

    // Nothing moves: the answer comes after the wait (a lower bound a busy machine only helps).
    long start = System.nanoTime();
    Ticket still = admin.rooms().ticket(room, second.ticket(), Duration.ofMillis(1_500));
    assertThat(still.status()).isEqualTo(TicketStatus.WAITING);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(1_400));

    CompletableFuture<Ticket> moved =
        CompletableFuture.supplyAsync(() -> {
          Ticket t = second;
          while (t.status() == TicketStatus.WAITING) {
            t = admin.rooms().ticket(room, t.ticket(), RoomsClient.MAX_TICKET_WAIT);
          }
          return t;
        });
    admin.rooms().leave(room, first.ticket());
    Ticket admitted = moved.get(2, TimeUnit.MINUTES);
    assertThat(admitted.status()).isEqualTo(TicketStatus.ADMITTED);
    assertThat(admitted.pass()).isNotBlank();

    assertThatThrownBy(() -> admin.rooms().ticket(room, second.ticket(), Duration.ofSeconds(31)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 to 30 s");
  }

  @Test
  void aGrantMovesOneTicketAheadOnceAndTheLogSaysWho() {
    RoomName room = roomWith("grant", RoomSettings.maxActive(1));
    admin.rooms().join(room); // holds the only slot
    Ticket normal = admin.rooms().join(room);
    Grant grant =
        admin.rooms().createGrant(room, 10, "user-42", "support case 991", Duration.ofMinutes(5));
    assertThat(grant.id()).startsWith("g");
    assertThat(grant.priority()).isEqualTo(10);

    Ticket vip = admin.rooms().joinWithGrant(room, grant.id(), "user-42");

    assertThat(vip.priority()).isEqualTo(10);
    assertThat(vip.position()).isZero();
    assertThat(admin.rooms().ticket(room, normal.ticket()).position()).isEqualTo(1);
    assertThatThrownBy(() -> admin.rooms().joinWithGrant(room, grant.id(), "user-42"))
        .isInstanceOfSatisfying(
            GrantRefusedException.class, e -> assertThat(e.field()).isEqualTo("grant"));
    assertThat(admin.rooms().grants(room))
        .singleElement()
        .satisfies(g -> {
          assertThat(g.usedByTicket()).isEqualTo(vip.ticket());
          assertThat(g.note()).isEqualTo("support case 991");
          assertThat(g.usedAt()).isNotNull();
        });
  }

  @Test
  void aRenewablePassIsRenewedAndAnotherRoomsIsNot() {
    RoomName renewable =
        roomWith("renew", RoomSettings.maxActive(2).renewable(true).passTtl(Duration.ofMinutes(1)));
    RoomName fixed = roomWith("fixed", RoomSettings.maxActive(2));
    Ticket ticket = admin.rooms().join(renewable);

    Ticket renewed = admin.rooms().renew(renewable, ticket.ticket());

    assertThat(renewed.status()).isEqualTo(TicketStatus.ADMITTED);
    assertThat(renewed.passExpiresAt()).isGreaterThanOrEqualTo(ticket.passExpiresAt());
    Ticket other = admin.rooms().join(fixed);
    assertThatThrownBy(() -> admin.rooms().renew(fixed, other.ticket()))
        .isInstanceOf(NotRenewableException.class);
  }

  @Test
  void aRevokedPassIsRefusedOnline() {
    RoomName room = roomWith("revoke", RoomSettings.maxActive(1));
    Ticket ticket = admin.rooms().join(room);

    admin.rooms().revokePass(room, ticket.passId());

    assertThatThrownBy(() -> admin.rooms().verifyPass(room, ticket.pass()))
        .isInstanceOfSatisfying(
            PassRejectedException.class, e -> assertThat(e.reason()).isEqualTo("revoked"));
  }

  @Test
  void aFullRoomOfMethodRejectRefusesTheJoin() {
    RoomName room =
        roomWith("reject", RoomSettings.maxActive(1).queueingMethod(QueueingMethod.REJECT));
    admin.rooms().join(room);

    assertThatThrownBy(() -> admin.rooms().join(room))
        .isInstanceOfSatisfying(
            RoomFullException.class, e -> assertThat(e.code()).isEqualTo("room_full"));
  }

  @Test
  void badTicketsAndPassesAreRefusedWithTypedExceptions() {
    RoomName room = roomWith("bad", RoomSettings.maxActive(1));

    assertThatThrownBy(() -> admin.rooms().ticket(room, "not-a-ticket"))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("ticket"));
    assertThatThrownBy(() -> admin.rooms().ticket(room, "t" + "A".repeat(22)))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> admin.rooms().verifyPass(room, "garbage"))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("pass"));
    assertThatThrownBy(() -> admin.rooms().join(RoomName.of("rooms", "no-such-room")))
        .isInstanceOf(NotFoundException.class);
    try (LineupClient normal =
        LineupClient.connect(server.url(), server.tokenFor("rooms", 0, "publish"))) {
      assertThatThrownBy(() -> normal.rooms().join(room, 5))
          .isInstanceOfSatisfying(
              ForbiddenException.class,
              e -> assertThat(e.code()).isEqualTo("priority_not_allowed"));
    }
    assertThatThrownBy(() -> RoomName.parse("no-slash"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
