package io.lineup.bench;

/**
 * The sizes of the waiting-room and pass figures, by the run's mode (kept apart from {@link Counts}
 * so that the room scenarios stay in files of their own).
 *
 * @param joins measured joins of {@code room_join_per_s} (and as many unmeasured first)
 * @param pollTickets tickets waiting in the room whose polls {@code room_poll_per_s} measures
 * @param polls measured polls per round of {@code room_poll_per_s}
 * @param etaTickets tickets of the steady run of {@code room_eta_mape}
 * @param etaSlots the room's {@code max_active} in that run
 * @param etaVisitMs mean time an admitted ticket keeps its pass in that run (from half to one and a
 *     half of it), in ms
 * @param etaReadAfterMs time from the first join to the first ETA kept, in ms, so that admissions
 *     have been measured
 * @param streams idle event streams of {@code room_streams_idle_cpu}
 * @param eventStreams event streams of {@code room_event_ms_p99}, each told its admission
 * @param timedJoins joins timed for {@code room_join_ms_p99}, with the streams open and without
 * @param passTokens distinct passes checked in {@code pass_verify_us_p99} (each once), in {@code
 *     pass_verify_repeat_us_p99} (each again) and in {@code pass_verify_tabulated_us_p99} (each
 *     once)
 */
record RoomCounts(
    int joins,
    int pollTickets,
    int polls,
    int etaTickets,
    int etaSlots,
    long etaVisitMs,
    long etaReadAfterMs,
    int passTokens,
    int streams,
    int eventStreams,
    int timedJoins) {

  /** Share of the tickets of the steady run that stop polling right after joining. */
  static final double ETA_ABANDON_SHARE = 0.2;

  /** The sizes for a mode of {@link Counts}: {@code full}, {@code quick} or {@code smoke}. */
  static RoomCounts of(String mode) {
    return switch (mode) {
      case "full" ->
          new RoomCounts(
              50_000, 1_000, 50_000, 600, 80, 2_000, 6_000, 10_000, 20_000, 2_000, 5_000);
      case "quick" ->
          new RoomCounts(10_000, 1_000, 10_000, 600, 80, 2_000, 6_000, 5_000, 2_000, 500, 2_000);
      default -> new RoomCounts(300, 50, 200, 60, 10, 400, 1_500, 200, 50, 20, 200);
    };
  }

  /** These counts with {@code streams} idle event streams instead, unless it is 0. */
  RoomCounts withStreams(int streams) {
    return streams == 0
        ? this
        : new RoomCounts(
            joins,
            pollTickets,
            polls,
            etaTickets,
            etaSlots,
            etaVisitMs,
            etaReadAfterMs,
            passTokens,
            streams,
            eventStreams,
            timedJoins);
  }

  /** The counts by name, for the report. */
  void addTo(io.lineup.bench.report.BenchReport report) {
    report.count("room_joins", joins);
    report.count("room_poll_tickets", pollTickets);
    report.count("room_polls", polls);
    report.count("room_eta_tickets", etaTickets);
    report.count("room_eta_slots", etaSlots);
    report.count("room_eta_visit_ms", etaVisitMs);
    report.count("room_eta_read_after_ms", etaReadAfterMs);
    report.count("room_eta_abandon_share", ETA_ABANDON_SHARE);
    report.count("pass_tokens", passTokens);
    report.count("room_streams", streams);
    report.count("room_event_streams", eventStreams);
    report.count("room_timed_joins", timedJoins);
  }
}
