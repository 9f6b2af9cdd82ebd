package io.lineup.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lineup.bench.report.BenchReport;
import io.lineup.bench.report.JsonReport;
import io.lineup.bench.report.ReportTable;
import io.lineup.redis.RedisProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs every scenario with tiny counts against a redis-server of the test's own and checks the JSON
 * report. Speed is never asserted: the figures only have to exist and be positive.
 */
class BenchSmokeTest {
  /**
   * The server jar, where the server module's build leaves it (seen from this module's folder,
   * Maven's working directory); {@code -Dlineup.serverJar=PATH} points elsewhere. When it exists
   * the HTTP figures must be measured too.
   */
  private static final Path SERVER_JAR =
      Path.of(
          System.getProperty(
              "lineup.serverJar",
              Path.of("..", "lineup-server", "target", "lineup-server.jar").toString()));

  private static final Set<String> HTTP_FIGURES =
      Stream.concat(
              Stream.of(
                  "http_publish_per_s",
                  "http_consume_per_s",
                  "dispatch_per_s",
                  "dispatch_start_ms_p99",
                  "dispatch_rate_error",
                  "dispatch_rate_achieved"),
              RoomScenarios.HTTP_FIGURES.stream())
          .collect(Collectors.toUnmodifiableSet());

  /**
   * Figures with no Redis CPU of their own: offline checks, a wait timed one job at a time, and
   * memory figures of a fill measured beside another.
   */
  private static final Set<String> NO_REDIS =
      Set.of(
          "pass_verify_us_p99",
          "pass_verify_repeat_us_p99",
          "pass_verify_tabulated_us_p99",
          "fair_wait_small_key_ms_p99",
          "fair_plain_bytes_per_job",
          "fair_bytes_ratio");

  /** Figures that are ratios or sizes, with no ratio to the reference. */
  private static final Set<String> NO_RATIO =
      Set.of(
          "bytes_per_job",
          "consume_floor_ratio",
          "eta_mape",
          "eta_in_band",
          "dispatch_rate_error",
          "dispatch_rate_achieved",
          "room_eta_mape",
          "room_streams_idle_cpu",
          "room_stream_rss_bytes",
          "room_join_streams_ratio",
          "schedule_ticks_exact_share",
          "fair_consume_ratio",
          "fair_share_error",
          "fair_bytes_per_job",
          "fair_plain_bytes_per_job",
          "fair_bytes_ratio");

  /**
   * Latenesses that are 0 when nothing was late: a schedule's tick is published ahead of its time
   * (its job due at the tick), so its publish is 0 ms late unless the machine stalls.
   */
  private static final Set<String> MAY_BE_ZERO =
      Set.of("schedule_tick_late_ms_p99", "fair_share_error");

  private static RedisProcess redis;

  @BeforeAll
  static void startRedis() {
    redis = RedisProcess.builder().build().start();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  void everyScenarioReportsAPositiveFigureInTheJson() throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    BenchReport report =
        Bench.run(
            new BenchOptions(
                Counts.smoke(),
                true,
                redis.uri(),
                SERVER_JAR,
                false,
                // The adaptive group has a test of its own (below).
                EnumSet.complementOf(EnumSet.of(ScenarioGroup.ADAPTIVE)),
                false,
                false,
                0),
            new PrintStream(progress, true, StandardCharsets.UTF_8));

    // Kept in the test's output file, to read when an assertion fails.
    System.out.print(progress.toString(StandardCharsets.UTF_8));
    System.out.print(ReportTable.of(report));
    JsonNode json = new ObjectMapper().readTree(JsonReport.of(report));

    assertThat(json.path("mode").asText()).isEqualTo("smoke");
    List<String> expected = new ArrayList<>(BenchReport.ORDER);
    // Measured only with --deep-10m (the test below).
    expected.removeAll(BenchReport.DEEP_TEN_MILLION);
    expected.removeAll(AdaptiveScenarios.FIGURES);
    List<String> mayBeSkipped = new ArrayList<>();
    if (!Files.isRegularFile(SERVER_JAR)) {
      // Only an absent jar may skip the HTTP figures, with the reason given.
      expected.removeAll(HTTP_FIGURES);
      mayBeSkipped.addAll(HTTP_FIGURES);
      HTTP_FIGURES.forEach(
          figure -> assertThat(json.path("skipped").path(figure).asText()).contains("absent"));
    }
    if (ArchiveScenario.unreachable().isPresent()) {
      // Only an unreachable database may skip the archive figures, and not in CI.
      assertThat(System.getenv("LINEUP_REQUIRE_DB"))
          .as("LINEUP_REQUIRE_DB=1 needs the local PostgreSQL: " + ArchiveScenario.unreachable())
          .isNotEqualTo("1");
      expected.removeAll(Bench.ARCHIVE_FIGURES);
      mayBeSkipped.addAll(Bench.ARCHIVE_FIGURES);
      Bench.ARCHIVE_FIGURES.forEach(figure ->
          assertThat(json.path("skipped").path(figure).asText()).contains("not reachable"));
    }
    assertThat(json.path("skipped").fieldNames())
        .toIterable()
        .containsExactlyInAnyOrderElementsOf(mayBeSkipped);
    for (String figure : expected) {
      assertThat(json.path("figures").path(figure).isNumber()).as(figure).isTrue();
      double value = json.path("figures").path(figure).asDouble();
      if (MAY_BE_ZERO.contains(figure)) {
        assertThat(value).as(figure).isNotNegative();
      } else {
        assertThat(value).as(figure).isPositive();
      }
      if (!NO_REDIS.contains(figure)) {
        assertThat(json.path("redis_cpu_us_per_job").path(figure).asDouble())
            .as("redis_cpu_us_per_job of " + figure)
            .isPositive();
      }
      // Memory, errors, shares and ratios do not scale with the reference rate: they have no ratio.
      if (!NO_RATIO.contains(figure) && value > 0) {
        assertThat(json.path("ratio_to_raw").path(figure).asDouble())
            .as("ratio of " + figure)
            .isPositive();
      }
    }
    assertThat(json.path("figures").size()).isEqualTo(expected.size());
    assertThat(ReportTable.of(report)).contains("SMOKE run", "raw_script_per_s", "bytes_per_job");
    // A smoke run: three consume round pairs and two rounds of the rest (the counts are separate);
    // each later round of the deep drain starts with the line topped up.
    assertThat(progress.toString(StandardCharsets.UTF_8))
        .contains(
            "consume_per_s: round 3 of 3",
            "consume_per_s_1m: 500 of 2,000 jobs waiting",
            "consume_per_s_1m: round 3 of 3",
            "late_ms: round 2 of 2",
            "late_ms_10k: round 2 of 2",
            "floor_publish_us: round 2 of 2",
            "floor_consume_us: 500 jobs waiting",
            "eta: round 2 of 2");
    // The floor's, the shallow and the deep drains take turns: A B C, then C B A, then A B C, so
    // the floor's drain always runs next to the engine's shallow one.
    assertThat(progress.toString(StandardCharsets.UTF_8).lines().toList())
        .filteredOn(
            line -> line.matches("\\[bench] (floor_consume_us|consume_per_s(_1m)?): round .*"))
        .extracting(line -> line.substring("[bench] ".length(), line.indexOf(" of ")))
        .containsExactly(
            "floor_consume_us: round 1",
            "consume_per_s: round 1",
            "consume_per_s_1m: round 1",
            "consume_per_s_1m: round 2",
            "consume_per_s: round 2",
            "floor_consume_us: round 2",
            "floor_consume_us: round 3",
            "consume_per_s: round 3",
            "consume_per_s_1m: round 3");
    assertThat(progress.toString(StandardCharsets.UTF_8))
        .contains(
            "consume_per_s_1m / consume_per_s round by round: ",
            "consume_per_s / floor_consume_us (Redis CPU per job) round by round: ");
    // The engine's Redis CPU per job over the floor's, both of one round (the JSON rounds each).
    assertThat(json.path("figures").path("consume_floor_ratio").asDouble())
        .isCloseTo(
            json.path("redis_cpu_us_per_job").path("consume_floor_ratio").asDouble()
                / json.path("figures").path("floor_consume_us").asDouble(),
            within(0.01));
  }

  @Test
  void theAdaptiveGroupGivesItsFiguresInTheirRangesAndNoRefusedTaskReachesTheEndpoint()
      throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    BenchOptions options =
        BenchOptions.parse(
            List.of(
                "--smoke", "--json", "--only", "adaptive", "--server-jar", SERVER_JAR.toString()),
            Map.of("LINEUP_REDIS_URL", redis.uri()));
    BenchReport report =
        Bench.run(options, new PrintStream(progress, true, StandardCharsets.UTF_8));

    String lines = progress.toString(StandardCharsets.UTF_8);
    System.out.print(lines);
    System.out.print(ReportTable.of(report));
    JsonNode json = new ObjectMapper().readTree(JsonReport.of(report));
    if (!Files.isRegularFile(SERVER_JAR)) {
      // Only an absent jar may skip them, with the reason given.
      AdaptiveScenarios.FIGURES.forEach(
          figure -> assertThat(json.path("skipped").path(figure).asText()).contains("absent"));
      return;
    }
    assertThat(json.path("skipped").size()).isZero();
    JsonNode figures = json.path("figures");
    for (String figure : AdaptiveScenarios.FIGURES) {
      assertThat(figures.path(figure).isNumber()).as(figure).isTrue();
      assertThat(json.path("redis_cpu_us_per_job").path(figure).asDouble())
          .as("redis_cpu_us_per_job of " + figure)
          .isPositive();
      assertThat(json.path("targets").path(figure).path("reached").isBoolean())
          .as("target of " + figure)
          .isTrue();
    }
    // At most the capacity rate at the base service time: 1.25 × the one at full load.
    assertThat(figures.path("adaptive_goodput_share").asDouble()).isGreaterThan(0).isLessThan(1.25);
    assertThat(figures.path("adaptive_429_share").asDouble()).isBetween(0.0, 1.0);
    assertThat(figures.path("adaptive_latency_p99_ratio").asDouble()).isPositive();
    // A step that never settles counts as its length: 4 s in a smoke run.
    assertThat(figures.path("adaptive_settle_ms").asDouble()).isBetween(0.0, 4_000.0);
    assertThat(figures.path("deadline_miss_share").asDouble()).isBetween(0.0, 1.0);
    // Refused tasks were never queued and timed-out ones ended before any request.
    assertThat(figures.path("refused_or_expired_endpoint_calls").asDouble()).isZero();
    assertThat(json.path("counts").path("adaptive_limits").asText()).isIn("adaptive", "fixed");
    assertThat(lines)
        .contains(
            "adaptive: step 1 (capacity 50)",
            "adaptive: step 2 (capacity 20)",
            "adaptive: step 3 (capacity 80)",
            "answered 202");
  }

  @Test
  void withoutTheConsumeGroupTheFloorDrainsInItsOwnRounds() throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    BenchOptions options =
        BenchOptions.parse(
            List.of("--smoke", "--json", "--only", "bulk"),
            Map.of("LINEUP_REDIS_URL", redis.uri()));
    BenchReport report =
        Bench.run(options, new PrintStream(progress, true, StandardCharsets.UTF_8));

    System.out.print(progress.toString(StandardCharsets.UTF_8));
    JsonNode json = new ObjectMapper().readTree(JsonReport.of(report));
    assertThat(json.path("figures").path("floor_publish_us").asDouble()).isPositive();
    assertThat(json.path("figures").path("floor_consume_us").asDouble()).isPositive();
    assertThat(json.path("figures").has("consume_per_s")).isFalse();
    assertThat(json.path("figures").has("consume_floor_ratio")).isFalse();
    assertThat(progress.toString(StandardCharsets.UTF_8))
        .contains("floor_publish_us: round 2 of 2", "floor_consume_us: round 2 of 2")
        .doesNotContain("round by round");
  }

  @Test
  void theTenMillionOptionFillsTheDeepQueueTenTimesDeeperAndNamesItsFiguresSo() throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    BenchOptions options =
        BenchOptions.parse(
            List.of("--smoke", "--json", "--deep-10m", "--only", "consume,deep"),
            Map.of("LINEUP_REDIS_URL", redis.uri()));
    BenchReport report =
        Bench.run(options, new PrintStream(progress, true, StandardCharsets.UTF_8));

    System.out.print(progress.toString(StandardCharsets.UTF_8));
    JsonNode json = new ObjectMapper().readTree(JsonReport.of(report));
    assertThat(json.path("counts").path("deep_waiting").asInt()).isEqualTo(20_000);
    for (String figure : BenchReport.DEEP_TEN_MILLION) {
      assertThat(json.path("figures").path(figure).asDouble()).as(figure).isPositive();
    }
    assertThat(json.path("figures").has("consume_per_s_1m")).isFalse();
    assertThat(json.path("figures").has("rank_us_p99")).isFalse();
    assertThat(json.path("targets").path("consume_per_s_10m").path("reached").isBoolean()).isTrue();
    assertThat(progress.toString(StandardCharsets.UTF_8))
        .contains("consume_per_s_10m: 500 of 20,000 jobs waiting");
  }

  @Test
  void theRoomStreamsOptionSetsHowManyIdleStreamsTheRoomFiguresOpen() {
    BenchOptions options =
        BenchOptions.parse(List.of("--smoke", "--room-streams", "120"), Map.of());
    assertThat(RoomCounts.of("smoke").withStreams(options.roomStreams()).streams()).isEqualTo(120);
    assertThat(RoomCounts.of("full").withStreams(0).streams()).isEqualTo(20_000);
    assertThatThrownBy(() -> BenchOptions.parse(List.of("--room-streams", "0"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--room-streams needs a positive whole number");
  }
}
