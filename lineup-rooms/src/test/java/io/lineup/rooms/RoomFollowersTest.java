package io.lineup.rooms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.testing.RedisServerExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Followers of tickets (event streams, long polls) fed by one watcher per room and instance: what a
 * change made through one instance tells a follower on another, that followers cost no Redis
 * commands of their own, and that a follower that ends is unregistered.
 */
class RoomFollowersTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  private static final Duration BOUND = Duration.ofSeconds(30);
  private static final Pattern TOTAL_COMMANDS = Pattern.compile("total_commands_processed:(\\d+)");

  static Lineup lineupA;
  static Lineup lineupB;
  static Rooms admitting; // instance A: admits and sweeps
  static Rooms following; // instance B: holds the followers, admits nothing by itself

  @BeforeAll
  static void start() {
    lineupA = Lineup.connect(LineupOptions.builder(redis.uri()).build());
    lineupB = Lineup.connect(LineupOptions.builder(redis.uri()).build());
    admitting = new Rooms(lineupA);
    admitting.start();
    following = new Rooms(lineupB);
  }

  @AfterAll
  static void stop() {
    following.close();
    admitting.close();
    lineupB.close();
    lineupA.close();
  }

  /** A room of one slot whose first ticket holds the slot; returns the room. */
  static RoomKey aRoomOfOneSlotTaken(List<String> tickets, int waiting) {
    RoomKey key = new RoomKey("shop", RedisServerExtension.uniqueName("follow"));
    admitting.room(key).put(RoomSpec.of(1).withGraceMs(600_000));
    await().atMost(BOUND).until(() -> following.room(key).info().isPresent());
    await()
        .atMost(BOUND)
        .ignoreExceptions()
        .until(() -> following.room(key).spec() != null && admitting.room(key).spec() != null);
    Ticket first = admitting.room(key).join(JoinRequest.of(Caller.ADMIN));
    await()
        .atMost(BOUND)
        .until(() -> admitting.room(key).ticket(first.id()).status() == TicketStatus.ADMITTED);
    tickets.add(first.id());
    for (int i = 0; i < waiting; i++) {
      tickets.add(admitting.room(key).join(JoinRequest.of(Caller.ADMIN)).id());
    }
    return key;
  }

  /** Follows a ticket on instance B in a thread of its own; the sink gathers what it is told. */
  static CompletableFuture<Void> follow(
      RoomKey key, String ticket, List<Ticket> told, AtomicBoolean closing) {
    Room room = following.room(key);
    Ticket first = room.poll(ticket);
    CompletableFuture<Void> ended = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(() -> {
          try {
            room.follow(
                ticket,
                first,
                closing::get,
                new TicketFollower.Sink() {
                  @Override
                  public void send(Ticket t) {
                    told.add(t);
                  }

                  @Override
                  public void keepAlive() {}
                });
            ended.complete(null);
          } catch (IOException | InterruptedException | RuntimeException e) {
            ended.completeExceptionally(e);
          }
        });
    return ended;
  }

  @Test
  void anAdmissionMadeThroughOneInstanceReachesAFollowerOnTheOtherWithItsPass() throws Exception {
    List<String> tickets = new ArrayList<>();
    RoomKey key = aRoomOfOneSlotTaken(tickets, 1);
    String waiting = tickets.get(1);
    List<Ticket> told = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> ended = follow(key, waiting, told, new AtomicBoolean());
    await().atMost(BOUND).until(() -> following.room(key).followers() == 1);

    admitting.room(key).leave(tickets.get(0)); // instance A admits the next ticket

    ended.get(BOUND.toSeconds(), TimeUnit.SECONDS);
    assertThat(told.get(0).status()).isEqualTo(TicketStatus.WAITING);
    Ticket last = told.get(told.size() - 1);
    assertThat(last.id()).isEqualTo(waiting);
    assertThat(last.status()).isEqualTo(TicketStatus.ADMITTED);
    assertThat(last.pass()).isNotNull();
    assertThat(last.pass().token()).isNotBlank();
    await().atMost(BOUND).until(() -> following.room(key).followers() == 0);
  }

  @Test
  void aFollowerIsToldItsNewPositionWhenATicketAheadLeavesThroughTheOtherInstance()
      throws Exception {
    List<String> tickets = new ArrayList<>();
    RoomKey key = aRoomOfOneSlotTaken(tickets, 2);
    String second = tickets.get(2);
    List<Ticket> told = new CopyOnWriteArrayList<>();
    AtomicBoolean closing = new AtomicBoolean();
    CompletableFuture<Void> ended = follow(key, second, told, closing);
    await().atMost(BOUND).until(() -> following.room(key).followers() == 1);
    assertThat(told.get(0).position()).isEqualTo(1);

    admitting.room(key).leave(tickets.get(1));

    await().atMost(BOUND).until(() -> told.get(told.size() - 1).position() == 0);
    assertThat(told).extracting(Ticket::status).containsOnly(TicketStatus.WAITING);
    closing.set(true);
    ended.get(BOUND.toSeconds(), TimeUnit.SECONDS);
    await().atMost(BOUND).until(() -> following.room(key).followers() == 0);
  }

  @Test
  void twoHundredIdleFollowersCostRedisNoMoreCommandsThanOneAndAConstant() throws Exception {
    List<String> tickets = new ArrayList<>();
    RoomKey key = aRoomOfOneSlotTaken(tickets, 200);
    AtomicBoolean closing = new AtomicBoolean();
    List<CompletableFuture<Void>> ends = new ArrayList<>();
    ends.add(follow(key, tickets.get(1), new CopyOnWriteArrayList<>(), closing));
    await().atMost(BOUND).until(() -> following.room(key).followers() == 1);
    long one = commandsOver(Duration.ofSeconds(3));

    for (int i = 2; i <= 200; i++) {
      ends.add(follow(key, tickets.get(i), new CopyOnWriteArrayList<>(), closing));
    }
    await().atMost(BOUND).until(() -> following.room(key).followers() == 200);
    long many = commandsOver(Duration.ofSeconds(3));

    System.out.printf(
        "Redis commands over 3 s of an idle room: %d with 1 follower, %d with 200%n", one, many);
    assertThat(many).isLessThan(2 * one + 100);
    closing.set(true);
    for (CompletableFuture<Void> end : ends) {
      end.get(BOUND.toSeconds(), TimeUnit.SECONDS);
    }
    await().atMost(BOUND).until(() -> following.room(key).followers() == 0);
  }

  @Test
  void aLongPollAnswersTheAdmissionWhenItComesAndTheSameTicketWhenNothingChanged()
      throws Exception {
    List<String> tickets = new ArrayList<>();
    RoomKey key = aRoomOfOneSlotTaken(tickets, 1);
    String waiting = tickets.get(1);
    Room room = following.room(key);

    Ticket unchanged = room.poll(waiting, 500);
    assertThat(unchanged.status()).isEqualTo(TicketStatus.WAITING);
    assertThat(unchanged.position()).isZero();

    CompletableFuture<Ticket> answer = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(() -> {
          try {
            answer.complete(room.poll(waiting, TicketFollower.MAX_WAIT_MS));
          } catch (InterruptedException | RuntimeException e) {
            answer.completeExceptionally(e);
          }
        });
    await().atMost(BOUND).until(() -> room.followers() == 1);
    admitting.room(key).leave(tickets.get(0));

    Ticket admitted = answer.get(BOUND.toSeconds(), TimeUnit.SECONDS);
    assertThat(admitted.status()).isEqualTo(TicketStatus.ADMITTED);
    assertThat(admitted.pass()).isNotNull();
    await().atMost(BOUND).until(() -> room.followers() == 0);
  }

  @Test
  void aLongPollRefusesAWaitOutsideZeroToItsMaximum() {
    List<String> tickets = new ArrayList<>();
    RoomKey key = aRoomOfOneSlotTaken(tickets, 1);
    Room room = following.room(key);
    assertThatThrownBy(() -> room.poll(tickets.get(1), -1))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> room.poll(tickets.get(1), TicketFollower.MAX_WAIT_MS + 1))
        .isInstanceOf(InvalidArgumentException.class);
  }

  /** Redis's count of commands processed over a period (INFO stats before and after). */
  private static long commandsOver(Duration period) throws Exception {
    long before = totalCommands();
    Thread.sleep(period.toMillis()); // a measuring window, not a wait for a state
    return totalCommands() - before;
  }

  private static long totalCommands() throws IOException {
    Matcher m = TOTAL_COMMANDS.matcher(redis.process().command("INFO stats"));
    assertThat(m.find()).isTrue();
    return Long.parseLong(m.group(1));
  }
}
