package io.lineup.rooms;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.testing.RedisServerExtension;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Abandonment and ETA accuracy on a real Redis, with simulated users calling the room service
 * directly (no HTTP, so a thousand tickets can poll every few hundred milliseconds on a small
 * machine). Users who stay poll until admitted and give the pass back after a short visit; the
 * others stop polling right after joining.
 */
class RoomAbandonmentTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static Lineup lineup;
  static Rooms rooms;
  static ExecutorService pool;
  static ScheduledExecutorService visits;

  @BeforeAll
  static void start() {
    lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build());
    rooms = new Rooms(lineup);
    rooms.start();
    pool = Executors.newFixedThreadPool(8);
    visits = Executors.newScheduledThreadPool(4);
  }

  @AfterAll
  static void stop() {
    pool.shutdownNow();
    visits.shutdownNow();
    rooms.close();
    lineup.close();
  }

  /** What happened to the tickets of a run. */
  record Run(
      Map<String, Long> admittedAt,
      Map<String, String> endOfAbandoned,
      List<Integer> admissionsPerSecond,
      List<double[]> etas,
      long waitingCountedAfterGrace,
      long waitingStayersAfterGrace,
      long pollsStartedAt,
      long longestPollGapMs,
      long latestLeaveMs) {}

  /**
   * A ticket gone before a poll saw it admitted although the user polled in time: within the pass's
   * lifetime, and never further apart than the grace.
   */
  static final long LOST = -1;

  /**
   * A ticket gone before a poll saw it admitted because the simulated user polled less often than
   * the pass lives or the grace allows.
   */
  static final long POLLED_TOO_LATE = -2;

  /** Slack for the sweep that expires passes and for the two clocks (local and Redis's). */
  static final long POLL_MARGIN_MS = 250;

  static Run run(RoomKey key, RoomSpec settings, int tickets, double abandonShare, long visitMs)
      throws Exception {
    Room room = rooms.room(key);
    room.put(settings);
    RoomSpec spec = room.spec();
    Random random = new Random(42);
    List<String> stayers = new ArrayList<>();
    List<String> leavers = new ArrayList<>();
    List<String> all = new ArrayList<>();
    // Until a ticket's first poll, the time it joined stands for its last poll.
    Map<String, Long> lastPollStart = new ConcurrentHashMap<>();
    for (int i = 0; i < tickets; i++) {
      String ticket = room.join(JoinRequest.of(Caller.ADMIN)).id();
      all.add(ticket);
      lastPollStart.put(ticket, System.currentTimeMillis());
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < tickets; i++) {
      order.add(i);
    }
    Collections.shuffle(order, random);
    int abandoning = (int) Math.round(tickets * abandonShare);
    for (int i = 0; i < tickets; i++) {
      (order.get(i) < abandoning ? leavers : stayers).add(all.get(i));
    }
    long joinedAt = System.currentTimeMillis();
    Map<String, Long> admittedAt = new ConcurrentHashMap<>();
    Map<String, double[]> firstEta = new ConcurrentHashMap<>();
    Map<String, Long> releaseAt = new ConcurrentHashMap<>();
    Map<String, Long> longestGap = new ConcurrentHashMap<>();
    // The longest time between two polls of one ticket (its join not counted as a poll), and how
    // much later than planned the simulated users gave a pass back, at most.
    AtomicLong latestLeave = new AtomicLong();
    // Passes given back so far. ETAs are read once the room has served twice its capacity, so that
    // the service was measured: a count, not a time, because on a busy machine a round of polls
    // can outlast any fixed time, by when the line has been served. The room admits at most one
    // ticket per pass given back beyond its capacity, so at that count most stayers (at least 240
    // of the 480 of the ETA test) are still waiting, however slow the polls.
    AtomicLong served = new AtomicLong();
    Map<String, Long> previousPoll = new ConcurrentHashMap<>();
    AtomicLong longestPollGap = new AtomicLong();
    long waitingCounted = -1;
    long waitingStayers = -1;
    // A generous bound: on a busy machine a round of polls of hundreds of tickets is slow.
    long deadline = joinedAt + 180_000;
    while (admittedAt.size() < stayers.size() && System.currentTimeMillis() < deadline) {
      List<String> open = new ArrayList<>();
      for (String t : stayers) {
        if (!admittedAt.containsKey(t)) {
          open.add(t);
        }
      }
      Collections.shuffle(open, random);
      List<Future<?>> round = new ArrayList<>();
      for (String t : open) {
        round.add(
            pool.submit(() -> {
              long now = System.currentTimeMillis();
              Ticket v = room.poll(t);
              long end = System.currentTimeMillis();
              long previous = lastPollStart.put(t, now);
              long longest = longestGap.merge(t, end - previous, Math::max);
              Long polledBefore = previousPoll.put(t, now);
              if (polledBefore != null) {
                longestPollGap.accumulateAndGet(end - polledBefore, Math::max);
              }
              TicketStatus status = v.status();
              if (status == TicketStatus.GONE) {
                // Gone before this user's poll saw it admitted: its pass expired unused, or it
                // was dropped as abandoned while waiting. Lineup lost it (-1) when that could not
                // have happened yet: the pass was admitted after the previous poll's start, so
                // it cannot have expired when this poll ended within the pass's lifetime of that
                // start; and a ticket none of whose polls (its join first) were further apart
                // than the grace is never dropped. Otherwise the simulated user polled too
                // slowly on a busy machine (-2), which the room cannot help: there a round of
                // polls of hundreds of tickets, or the joins before the first, can outlast the
                // grace, and a sweep that found the ticket unpolled for longer drops it even if
                // a poll arrives meanwhile.
                boolean polledInTime =
                    v.reason() == GoneReason.ABANDONED
                        ? longest < spec.graceMs() - POLL_MARGIN_MS
                        : end - previous < spec.passTtlMs() - POLL_MARGIN_MS;
                admittedAt.put(t, polledInTime ? LOST : POLLED_TOO_LATE);
                if (polledInTime) {
                  System.out.printf(
                      "abandonment: %s lost (%s), %d ms after the poll before, polls at most %d"
                          + " ms apart%n",
                      t, v, end - previous, longest);
                }
              } else if (status == TicketStatus.ADMITTED) {
                long at = v.pass().admittedAt();
                admittedAt.put(t, at);
                // A visit is timed from the admission, however late the poll saw it, so that the
                // room is served at a steady pace; visits last visitMs on average, from half to
                // one and a half of it.
                long visit = visitMs / 2 + ThreadLocalRandom.current().nextLong(visitMs + 1);
                releaseAt.put(t, at + visit);
                visits.schedule(
                    () -> {
                      latestLeave.accumulateAndGet(
                          System.currentTimeMillis() - (at + visit), Math::max);
                      try {
                        room.leave(t);
                        served.incrementAndGet();
                      } finally {
                        releaseAt.remove(t);
                      }
                    },
                    Math.max(0, at + visit - System.currentTimeMillis()),
                    TimeUnit.MILLISECONDS);
              } else if (status == TicketStatus.WAITING
                  && v.eta() != null
                  && served.get() >= 2L * spec.maxActive()
                  && !firstEta.containsKey(t)) {
                firstEta.put(
                    t,
                    new double[] {
                      now,
                      v.eta().point().toMillis(),
                      v.eta().low().toMillis(),
                      v.eta().high().toMillis()
                    });
              }
            }));
      }
      for (Future<?> f : round) {
        f.get();
      }
      if (waitingCounted < 0 && System.currentTimeMillis() - joinedAt > spec.graceMs() + 1_000) {
        // Past the grace and a sweep: the line counts only those who still poll. Those are read
        // first; the line can only have shrunk by the time it is counted.
        waitingStayers =
            stayers.stream().filter(t -> room.ticket(t).status() == TicketStatus.WAITING).count();
        waitingCounted = lineup.stats(key.queue()).ready();
      }
      Thread.sleep(50);
    }
    long drained = System.currentTimeMillis() + visitMs + 5_000;
    while (!releaseAt.isEmpty() && System.currentTimeMillis() < drained) {
      Thread.sleep(50);
    }
    Map<String, String> endOfAbandoned = new HashMap<>();
    for (String t : leavers) {
      Ticket v = room.ticket(t);
      endOfAbandoned.put(
          t, v.status().wireName() + (v.reason() != null ? "/" + v.reason().wireName() : ""));
    }
    int seconds = (int) ((System.currentTimeMillis() - joinedAt) / 1000) + 1;
    Integer[] perSecond = new Integer[seconds];
    java.util.Arrays.fill(perSecond, 0);
    for (long at : admittedAt.values()) {
      int s = (int) ((at - joinedAt) / 1000);
      if (s >= 0 && s < seconds) {
        perSecond[s]++;
      }
    }
    List<double[]> etas = new ArrayList<>();
    for (var e : firstEta.entrySet()) {
      Long at = admittedAt.get(e.getKey());
      if (at != null && at > 0) {
        double[] x = e.getValue();
        etas.add(new double[] {at - x[0], x[1], x[2], x[3]});
      }
    }
    return new Run(
        admittedAt,
        endOfAbandoned,
        List.of(perSecond),
        etas,
        waitingCounted,
        waitingStayers,
        joinedAt,
        longestPollGap.get(),
        latestLeave.get());
  }

  @Test
  void abandonedTicketsLoseTheirPlaceAfterTheGraceAndTheLineNeverStalls() throws Exception {
    RoomKey key = new RoomKey("ab", "thousand");
    Run run = run(key, RoomSpec.of(20).withPassTtlMs(4000).withGraceMs(2000), 1_000, 0.30, 50);

    long stayers = 1_000 - run.endOfAbandoned().size();
    Map<String, Long> ends = new HashMap<>();
    run.endOfAbandoned().values().forEach(v -> ends.merge(v, 1L, Long::sum));
    System.out.printf(
        "abandonment: %d tickets, %d stopped polling (%s); %d stayed, %d admitted;"
            + " after the grace the line counted %d waiting, %d of them still polling;"
            + " admissions per second %s%n",
        1_000,
        run.endOfAbandoned().size(),
        ends,
        stayers,
        run.admittedAt().size(),
        run.waitingCountedAfterGrace(),
        run.waitingStayersAfterGrace(),
        run.admissionsPerSecond());
    assertThat(run.endOfAbandoned()).hasSize(300);
    assertThat(run.admittedAt()).hasSize((int) stayers);
    long lost = run.admittedAt().values().stream().filter(at -> at == LOST).count();
    long late = run.admittedAt().values().stream().filter(at -> at == POLLED_TOO_LATE).count();
    System.out.printf(
        "tickets gone before a poll saw them admitted: %d although polled in time, %d polled too"
            + " slowly%n",
        lost, late);
    assertThat(lost)
        .as("tickets whose pass expired, or that were dropped, although the user polled in time")
        .isZero();
    // Every ticket that stopped polling is gone: dropped after the grace, or admitted before
    // it and its pass expired unused.
    assertThat(ends.keySet()).isSubsetOf("gone/abandoned", "gone/expired");
    assertThat(ends.getOrDefault("gone/abandoned", 0L)).isGreaterThan(200);
    // Counted once past the grace; how many still wait then depends on how fast the simulated
    // users polled (none, in a run beside two busy loops: issue 49), so the count is compared
    // with those still polling rather than asserted positive. Abandoned tickets counted as
    // waiting would push it over.
    assertThat(run.waitingCountedAfterGrace())
        .as("the line counted after the grace")
        .isNotNegative();
    assertThat(run.waitingCountedAfterGrace()).isLessThanOrEqualTo(run.waitingStayersAfterGrace());
    // The line never stalls: a slot held by a ticket whose user left would hold up admissions
    // until the grace has passed (or the pass's lifetime), so no two admissions in a row may be
    // further apart than the grace, plus what the simulated users themselves took: here their own
    // polls free the slots (a stayer leaves once a poll has seen it admitted, a visit after its
    // admission), so a slot may also wait for the longest time between two polls of a ticket and
    // for a leave that ran late. On a busy machine those stretch (issue 49: a fixed bound failed
    // there), and the bound with them; at rest they are a few hundred ms. The admission times are
    // the room's own record (admitted_at). Counted from the first poll on, since the first slots
    // are given while the thousand tickets join.
    long[] admissions =
        run.admittedAt().values().stream()
            .filter(at -> at >= run.pollsStartedAt())
            .mapToLong(at -> at)
            .sorted()
            .toArray();
    assertThat(admissions).as("admissions after the polls began").isNotEmpty();
    long longestGap = 0;
    for (int i = 1; i < admissions.length; i++) {
      longestGap = Math.max(longestGap, admissions[i] - admissions[i - 1]);
    }
    long simulatedUsersSlack = run.longestPollGapMs() + Math.max(0, run.latestLeaveMs());
    System.out.printf(
        "abandonment: longest time between two admissions %d ms; first %d ms after the polls"
            + " began; polls of a ticket at most %d ms apart, leaves at most %d ms late%n",
        longestGap,
        admissions[0] - run.pollsStartedAt(),
        run.longestPollGapMs(),
        run.latestLeaveMs());
    assertThat(longestGap)
        .as("longest time between two admissions, ms (grace + the simulated users' slack)")
        .isLessThan(rooms.room(key).spec().graceMs() + simulatedUsersSlack);
  }

  @Test
  void etasOfTheTicketsThatStayHoldWithTwentyPercentAbandoning() throws Exception {
    RoomKey key = new RoomKey("ab", "eta");
    Run run = run(key, RoomSpec.of(80).withPassTtlMs(10000).withGraceMs(2000), 600, 0.20, 2000);

    int inBand = 0;
    double ape = 0;
    for (double[] e : run.etas()) {
      double actual = e[0];
      if (actual >= e[2] && actual <= e[3]) {
        inBand++;
      }
      ape += Math.abs(e[1] - actual) / Math.max(actual, 1);
    }
    int n = run.etas().size();
    System.out.printf(
        "room ETA with 20%% abandoning: %d ETAs read once the room served twice its capacity,"
            + " %.1f%% admitted within their band, mean absolute percentage error of the point"
            + " %.1f%%; admissions per second %s%n",
        n,
        100.0 * inBand / Math.max(n, 1),
        100.0 * ape / Math.max(n, 1),
        run.admissionsPerSecond());
    // How accurate the ETAs are is a figure of the bench (room_eta_mape, docs/benchmarks.md, whose
    // progress line gives the share within the band too): on a busy machine the simulated users'
    // polls, and with them the admissions, slow down after the ETA was read (issue 49). The test
    // asserts what the room decided: every staying ticket admitted, none lost, ETAs given once
    // the service was measured, each a band around its point.
    assertThat(run.admittedAt()).hasSize(600 - run.endOfAbandoned().size());
    assertThat(run.admittedAt().values()).doesNotContain(LOST);
    // Under load fewer tickets are read waiting by then: that some are, each with its band, is
    // what is asserted.
    assertThat(n).as("ETAs read once the room served twice its capacity").isPositive();
    assertThat(run.etas())
        .allSatisfy(eta -> {
          assertThat(eta[2]).as("low end").isLessThanOrEqualTo(eta[1]);
          assertThat(eta[3]).as("high end").isGreaterThanOrEqualTo(eta[1]);
        });
  }
}
