package io.lineup.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lineup.bench.report.Figure;
import java.io.IOException;

/**
 * {@code room_poll_per_s}: {@code GET /v1/rooms/{ns}/{room}/tickets/{ticket}} through the server,
 * {@link #IN_FLIGHT} requests at once from this machine, over {@link RoomCounts#pollTickets()}
 * tickets waiting in a full room (each poll answers a position and an ETA, and keeps the ticket's
 * place); after a warm-up of as many polls, the median of {@link Counts#rounds()} rounds.
 */
final class RoomPollScenario {
  /** Requests in flight at once (one platform thread each, one connection each). */
  static final int IN_FLIGHT = 64;

  private static final ObjectMapper JSON = new ObjectMapper();

  private RoomPollScenario() {}

  static Figure run(BenchContext context, RoomCounts counts, HttpApi api, ServerProcess server) {
    String room =
        "/v1/rooms/" + BenchContext.NAMESPACE + "/" + context.freshQueue("poll-room").name();
    try {
      api.put(room, RoomJoinScenario.SETTINGS, 201);
      String[] paths = new String[counts.pollTickets()];
      context.say("room_poll_per_s: %,d tickets join over HTTP", paths.length);
      InFlight.run(
          paths.length,
          IN_FLIGHT,
          i -> {
            String ticket =
                JSON.readTree(api.post(room + "/tickets", "{}", 201).body())
                    .path("ticket")
                    .asText();
            paths[i] = room + "/tickets/" + ticket;
          });
      context.say("room_poll_per_s: warm-up %,d polls", counts.polls());
      poll(api, paths, counts.polls());
      Figure figure =
          Rounds.median(
              context,
              context.counts().rounds(),
              r -> measure(context, counts, api, server, paths));
      api.delete(room, 204);
      return figure;
    } catch (IOException e) {
      throw new IllegalStateException("room_poll_per_s: " + e.getMessage(), e);
    }
  }

  private static Figure measure(
      BenchContext context, RoomCounts counts, HttpApi api, ServerProcess server, String[] paths) {
    context.say("room_poll_per_s: %,d polls, %d in flight", counts.polls(), IN_FLIGHT);
    RedisProbe probe = RedisProbe.start(context);
    long serverCpu = server.cpuMicros();
    long nanos = poll(api, paths, counts.polls());
    RedisProbe.Cost cost = probe.finish("room_poll_per_s", counts.polls());
    context.say(
        "room_poll_per_s: the server process used %.1f µs of CPU per poll",
        (server.cpuMicros() - serverCpu) / (double) counts.polls());
    return new Figure(
        "room_poll_per_s",
        BenchContext.perSecond(counts.polls(), nanos),
        Figure.Unit.PER_SECOND,
        cost.redisMicrosPerJob(),
        cost.benchMicrosPerJob(),
        counts.polls());
  }

  /** Polls the tickets in turn; every answer must be a waiting or admitted ticket. */
  private static long poll(HttpApi api, String[] paths, int polls) {
    return InFlight.run(
        polls,
        IN_FLIGHT,
        i -> {
          String body = api.get(paths[i % paths.length], 200).body();
          if (!body.contains("\"status\":\"waiting\"")
              && !body.contains("\"status\":\"admitted\"")) {
            throw new IOException("a poll answered " + body);
          }
        });
  }
}
