package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.rooms.Caller;
import io.lineup.rooms.JoinRequest;
import io.lineup.rooms.RoomKey;
import io.lineup.rooms.RoomSpec;
import io.lineup.rooms.Rooms;

/**
 * {@code room_join_per_s}: joins of a waiting room at the engine level, through the rooms' Java API
 * in this process (no HTTP), {@link #IN_FLIGHT} joins at once. The room is full ({@code max_active}
 * 1), as at a sale, so each join is what a user meets then: its poll record, the ticket's publish,
 * an admission attempt refused by the limit, and the ticket's position and ETA.
 */
final class RoomJoinScenario {
  /** Joins in flight at once (one platform thread each). */
  static final int IN_FLIGHT = 64;

  /** The room's settings: one pass at a time, and places kept for an hour without polls. */
  static final RoomSpec SPEC = RoomSpec.of(1).withGraceMs(3_600_000);

  /** {@link #SPEC} as the HTTP API takes it, for the scenarios over HTTP. */
  static final String SETTINGS = "{\"max_active\": 1, \"grace_ms\": 3600000}";

  private RoomJoinScenario() {}

  static Figure run(BenchContext context, RoomCounts counts) {
    try (Rooms rooms = new Rooms(context.lineup())) { // not started: a join admits by itself
      return run(context, counts, rooms);
    }
  }

  private static Figure run(BenchContext context, RoomCounts counts, Rooms rooms) {
    int joins = counts.joins();
    context.say("room_join_per_s: warm-up %,d joins", joins);
    RoomKey warm = freshRoom(context, rooms, "join-warmup");
    String[] warmTickets = new String[joins];
    join(rooms, warm, warmTickets);
    drop(context, rooms, warm, warmTickets);

    RoomKey key = freshRoom(context, rooms, "join");
    String[] tickets = new String[joins];
    context.say("room_join_per_s: %,d joins, %d in flight", joins, IN_FLIGHT);
    RedisProbe probe = RedisProbe.start(context);
    long nanos = join(rooms, key, tickets);
    RedisProbe.Cost cost = probe.finish("room_join_per_s", joins);
    long waiting = context.lineup().stats(key.queue()).ready();
    drop(context, rooms, key, tickets);
    if (waiting != joins - 1) {
      throw new IllegalStateException(
          "room_join_per_s: " + waiting + " tickets waiting after " + joins + " joins");
    }
    return new Figure(
        "room_join_per_s",
        BenchContext.perSecond(joins, nanos),
        Figure.Unit.PER_SECOND,
        cost.redisMicrosPerJob(),
        cost.benchMicrosPerJob(),
        joins);
  }

  /** A room no earlier run used, in the bench's namespace. */
  static RoomKey freshRoom(BenchContext context, Rooms rooms, String purpose) {
    RoomKey key = new RoomKey(BenchContext.NAMESPACE, context.freshQueue(purpose).name());
    rooms.room(key).put(SPEC);
    return key;
  }

  private static long join(Rooms rooms, RoomKey key, String[] tickets) {
    return InFlight.run(
        tickets.length,
        IN_FLIGHT,
        i -> tickets[i] = rooms.room(key).join(JoinRequest.of(Caller.ADMIN)).id());
  }

  /** Deletes the room, its queue and the poll and lease records of its tickets. */
  static void drop(BenchContext context, Rooms rooms, RoomKey key, String[] tickets) {
    rooms.room(key).delete();
    context.redis().dropQueue(key.queue());
    var polls = context.lineup().records(POLL_RECORDS);
    var leases = context.lineup().records(LEASE_RECORDS);
    InFlight.run(
        tickets.length,
        8,
        i -> {
          if (tickets[i] != null) {
            polls.delete(tickets[i]);
            leases.delete(tickets[i]);
          }
        });
  }

  /** The record stores where the room service keeps tickets' last polls and passes' leases. */
  static final String POLL_RECORDS = "room-polls";

  static final String LEASE_RECORDS = "room-leases";
}
