package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.rooms.Caller;
import io.lineup.rooms.JoinRequest;
import io.lineup.rooms.Room;
import io.lineup.rooms.RoomKey;
import io.lineup.rooms.RoomSpec;
import io.lineup.rooms.Rooms;
import io.lineup.rooms.Ticket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * {@code room_eta_mape}: how far a waiting ticket's ETA is from its actual wait, in a steady run
 * where {@link RoomCounts#ETA_ABANDON_SHARE} of the tickets stop polling right after joining. The
 * room service runs in this process with its admission and abandonment loops; simulated users call
 * it directly. All tickets join at once; those who stay poll until admitted (a round of polls every
 * 50 ms on 8 threads) and give their pass back after a visit of half to one and a half of {@link
 * RoomCounts#etaVisitMs()}. Each staying ticket's first ETA read after {@link
 * RoomCounts#etaReadAfterMs()} (so admissions have been measured) is compared with the time from
 * that read to its admission: the figure is the mean absolute percentage error of the point; the
 * share admitted within the ETA's band is printed.
 */
final class RoomEtaScenario {
  /** The room's grace: a ticket not polled within it loses its place. */
  static final long GRACE_MS = 2_000;

  private static final int POLLERS = 8;

  private RoomEtaScenario() {}

  /** One ETA as read: when, the point, the band. */
  private record Reading(long at, long eta, long low, long high) {}

  /** One ETA's point against the wait that followed its reading, both in ms. */
  private record Miss(long eta, long actual) {
    /** The absolute error as a share of the actual wait (a wait under 1 ms counts as 1 ms). */
    double error() {
      return Math.abs(eta - actual) / (double) Math.max(actual, 1);
    }
  }

  static Figure run(BenchContext context, RoomCounts counts) {
    Rooms rooms = new Rooms(context.lineup());
    rooms.start();
    ExecutorService pollers = Executors.newFixedThreadPool(POLLERS);
    ScheduledExecutorService visits = Executors.newScheduledThreadPool(2);
    RoomKey key = new RoomKey(BenchContext.NAMESPACE, context.freshQueue("eta-room").name());
    String[] tickets = new String[counts.etaTickets()];
    try {
      long passTtl = Math.max(RoomSpec.MIN_PASS_TTL_MS, 5 * counts.etaVisitMs());
      rooms
          .room(key)
          .put(RoomSpec.of(counts.etaSlots()).withPassTtlMs(passTtl).withGraceMs(GRACE_MS));
      context.say(
          "room_eta_mape: %,d tickets, %d slots, visits of %d ms on average, %.0f%% stop polling",
          tickets.length,
          counts.etaSlots(),
          counts.etaVisitMs(),
          100 * RoomCounts.ETA_ABANDON_SHARE);
      RedisProbe probe = RedisProbe.start(context);
      Map<String, Reading> readings = new ConcurrentHashMap<>();
      Map<String, Long> admitted = new ConcurrentHashMap<>();
      List<String> stayers = joinAndSplit(rooms, key, tickets);
      simulate(context, rooms, key, counts, stayers, readings, admitted, pollers, visits);
      RedisProbe.Cost cost = probe.finish("room_eta_mape", tickets.length);
      List<Miss> misses = new ArrayList<>();
      int inBand = 0;
      for (var e : readings.entrySet()) {
        Long at = admitted.get(e.getKey());
        if (at == null || at < 0) {
          continue;
        }
        Reading r = e.getValue();
        long actual = at - r.at();
        misses.add(new Miss(r.eta(), actual));
        inBand += actual >= r.low() && actual <= r.high() ? 1 : 0;
      }
      int n = misses.size();
      if (n == 0) {
        throw new IllegalStateException("room_eta_mape: no ETA was read before an admission");
      }
      double mape = 100 * misses.stream().mapToDouble(Miss::error).sum() / n;
      context.say(
          "room_eta_mape: %d ETAs, %.1f%% admitted within their band, mean error %.1f%%;"
              + " %d of %d staying tickets admitted",
          n, 100.0 * inBand / n, mape, admitted.size(), stayers.size());
      sayHowTheErrorsSpread(context, misses);
      return new Figure(
          "room_eta_mape",
          mape,
          Figure.Unit.PERCENT,
          cost.redisMicrosPerJob(),
          cost.benchMicrosPerJob(),
          n);
    } finally {
      pollers.shutdownNow();
      visits.shutdownNow();
      // Stopped first, so that no admission runs while the room is dropped.
      rooms.close();
      try (Rooms cleanup = new Rooms(context.lineup())) {
        RoomJoinScenario.drop(context, cleanup, key, tickets);
      }
    }
  }

  /**
   * Prints the median and 90th percentile of the errors and the three largest with their ETA and
   * wait: a mean of percentages is carried by a few short waits, and this line tells whether a high
   * figure came from those or from every ETA.
   */
  private static void sayHowTheErrorsSpread(BenchContext context, List<Miss> misses) {
    List<Miss> sorted = new ArrayList<>(misses);
    sorted.sort(Comparator.comparingDouble(Miss::error));
    StringBuilder worst = new StringBuilder();
    for (int i = sorted.size() - 1; i >= Math.max(0, sorted.size() - 3); i--) {
      Miss m = sorted.get(i);
      worst.append(
          String.format(
              Locale.ROOT,
              " %.0f%% (ETA %,d ms, waited %,d ms)",
              100 * m.error(),
              m.eta(),
              m.actual()));
    }
    context.say(
        "room_eta_mape: error p50 %.1f%%, p90 %.1f%%; the largest:%s",
        100 * sorted.get(sorted.size() / 2).error(),
        100 * sorted.get((int) (sorted.size() * 0.9)).error(),
        worst);
  }

  /** Joins every ticket, then picks those who stay (the others never poll again). */
  private static List<String> joinAndSplit(Rooms rooms, RoomKey key, String[] tickets) {
    Room room = rooms.room(key);
    for (int i = 0; i < tickets.length; i++) {
      tickets[i] = room.join(JoinRequest.of(Caller.ADMIN)).id();
    }
    List<String> shuffled = new ArrayList<>(List.of(tickets));
    Collections.shuffle(shuffled, new Random(42));
    int leaving = (int) Math.round(tickets.length * RoomCounts.ETA_ABANDON_SHARE);
    return new ArrayList<>(shuffled.subList(leaving, shuffled.size()));
  }

  private static void simulate(
      BenchContext context,
      Rooms rooms,
      RoomKey key,
      RoomCounts counts,
      List<String> stayers,
      Map<String, Reading> readings,
      Map<String, Long> admitted,
      ExecutorService pollers,
      ScheduledExecutorService visits) {
    long start = System.currentTimeMillis();
    // Generous: the line served at the rate the slots and visits allow, three times over.
    long expectedMs = stayers.size() * counts.etaVisitMs() / counts.etaSlots();
    long deadline = start + 3 * expectedMs + 30_000;
    try {
      while (admitted.size() < stayers.size()) {
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException(
              "room_eta_mape: "
                  + admitted.size()
                  + " of "
                  + stayers.size()
                  + " staying tickets admitted after "
                  + (System.currentTimeMillis() - start)
                  + " ms");
        }
        List<Future<?>> round = new ArrayList<>();
        for (String ticket : stayers) {
          if (!admitted.containsKey(ticket)) {
            round.add(
                pollers.submit(
                    () -> poll(rooms, key, ticket, counts, start, readings, admitted, visits)));
          }
        }
        for (Future<?> f : round) {
          f.get();
        }
        Thread.sleep(50);
      }
      // Let the last visits end, so the room is left as users would leave it.
      Thread.sleep(3 * counts.etaVisitMs() / 2 + 100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("room_eta_mape: a poll failed: " + e.getCause(), e);
    }
    context.say("room_eta_mape: served in %,d ms", System.currentTimeMillis() - start);
  }

  private static void poll(
      Rooms rooms,
      RoomKey key,
      String ticket,
      RoomCounts counts,
      long start,
      Map<String, Reading> readings,
      Map<String, Long> admitted,
      ScheduledExecutorService visits) {
    long now = System.currentTimeMillis();
    Room room = rooms.room(key);
    Ticket view = room.poll(ticket);
    switch (view.status()) {
      case ADMITTED -> {
        long at = view.pass().admittedAt();
        admitted.put(ticket, at);
        long visit =
            counts.etaVisitMs() / 2 + ThreadLocalRandom.current().nextLong(counts.etaVisitMs() + 1);
        visits.schedule(
            () -> room.leave(ticket),
            Math.max(0, at + visit - System.currentTimeMillis()),
            TimeUnit.MILLISECONDS);
      }
      // Admitted and expired between two polls of a slow round: never seen admitted.
      case GONE -> admitted.put(ticket, -1L);
      case WAITING -> {
        if (now - start >= counts.etaReadAfterMs()
            && view.eta() != null
            && !readings.containsKey(ticket)) {
          readings.put(
              ticket,
              new Reading(
                  now,
                  view.eta().point().toMillis(),
                  view.eta().low().toMillis(),
                  view.eta().high().toMillis()));
        }
      }
      case PRE_QUEUE -> {
        // Not in this room (no event start).
      }
    }
  }
}
