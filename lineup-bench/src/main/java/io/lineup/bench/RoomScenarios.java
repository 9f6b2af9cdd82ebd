package io.lineup.bench;

import io.lineup.bench.report.BenchReport;
import java.nio.file.Files;
import java.util.List;

/**
 * The waiting-room figures ({@link ScenarioGroup#ROOM}): {@code room_join_per_s} and {@code
 * room_eta_mape} through the room service in this process, then {@code room_poll_per_s} and the
 * event stream figures ({@link RoomStreamScenario}) through a server of their own (skipped, with
 * the reason, when the server jar is absent or the server fails).
 */
final class RoomScenarios {
  /** The figures that need the server. */
  static final List<String> HTTP_FIGURES =
      List.of(
          "room_poll_per_s",
          "room_streams_idle_cpu",
          "room_streams_idle_redis_ops",
          "room_stream_rss_bytes",
          "room_join_ms_p99",
          "room_join_streams_ratio",
          "room_event_ms_p99");

  private RoomScenarios() {}

  static void run(BenchContext context, BenchOptions options, BenchReport report) {
    RoomCounts counts = RoomCounts.of(context.counts().mode()).withStreams(options.roomStreams());
    counts.addTo(report);
    report.count("room_in_flight", RoomJoinScenario.IN_FLIGHT);
    report.add(RoomJoinScenario.run(context, counts));
    report.add(RoomEtaScenario.run(context, counts));
    if (!Files.isRegularFile(options.serverJar())) {
      skip(
          context,
          report,
          "the server jar "
              + options.serverJar()
              + " is absent (build it: ./mvnw -pl lineup-server package)");
      return;
    }
    ServerProcess server;
    try {
      server = ServerProcess.start(options.serverJar(), context.redis().uri());
    } catch (RuntimeException e) {
      skip(context, report, "the server did not start: " + e.getMessage());
      return;
    }
    try (server;
        HttpApi api = new HttpApi(server.base(), server.token())) {
      context.say("room: server listening on %s", server.base());
      report.add(RoomPollScenario.run(context, counts, api, server));
      RoomStreamScenario.run(context, counts, api, server).forEach(report::add);
    } catch (RuntimeException e) {
      context.say("room scenario failed; the server's last output:%n%s", server.tail());
      skip(context, report, "the room scenario failed: " + e.getMessage());
    }
  }

  private static void skip(BenchContext context, BenchReport report, String reason) {
    context.say("Figures skipped: %s", reason);
    HTTP_FIGURES.forEach(figure -> report.skip(figure, reason));
  }
}
