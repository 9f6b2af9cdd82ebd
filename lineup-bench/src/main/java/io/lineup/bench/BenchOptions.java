package io.lineup.bench;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * How the bench was asked to run.
 *
 * @param counts the sizes (full, quick or smoke)
 * @param json print one JSON object on standard output (the table then goes to standard error)
 * @param redisUrl the Redis to load, or null to start a redis-server of its own
 * @param serverJar the Lineup server jar for the HTTP figures; they are skipped when it is absent
 * @param commandStats print, for each scenario, what each Redis command cost per job
 * @param only the scenario groups to run (the reference always runs); all when empty
 * @param embeddedRedis start the bundled redis-server even when one is installed
 * @param deepTenMillion fill the deep queue with ten times as many jobs (10,000,000 in a full run)
 *     and name its figures {@code consume_per_s_10m} and {@code rank_us_p99_10m}
 * @param roomStreams idle event streams of {@code room_streams_idle_cpu}; 0 for the mode's count
 */
public record BenchOptions(
    Counts counts,
    boolean json,
    String redisUrl,
    Path serverJar,
    boolean commandStats,
    Set<ScenarioGroup> only,
    boolean embeddedRedis,
    boolean deepTenMillion,
    int roomStreams) {

  /** Options for a whole run of every scenario. */
  public BenchOptions(Counts counts, boolean json, String redisUrl, Path serverJar) {
    this(counts, json, redisUrl, serverJar, false, Set.of(), false, false, 0);
  }

  /** The sizes of this run: {@link #counts}, ten times as deep with {@link #deepTenMillion}. */
  Counts runCounts() {
    return deepTenMillion ? counts.tenMillionDeep() : counts;
  }

  /** Whether this run includes {@code group}. */
  boolean runs(ScenarioGroup group) {
    return only.isEmpty() || only.contains(group);
  }

  /** Where the server module's build leaves its runnable jar, relative to the repository root. */
  public static final Path DEFAULT_SERVER_JAR = Path.of("lineup-server/target/lineup-server.jar");

  static final String USAGE =
      """
      Usage: lineup-bench [--quick] [--json] [--commandstats] [--only GROUPS]
                          [--deep-10m] [--embedded-redis] [--redis-url URL]
                          [--server-jar PATH] [--room-streams N]

        --quick            smaller counts (20,000 jobs instead of 200,000 and 1,000,000);
                           about four minutes on two cores; figures are labelled quick
        --json             print one JSON object on standard output (table on standard error)
        --commandstats     after each scenario, print what each Redis command cost per job
                           (INFO commandstats before and after; nothing is reset)
        --only GROUPS      run only these scenario groups (comma list of publish, bulk,
                           durable, consume, archive, deep, late, late10k, schedule, fair, eta, http,
                           prune, dispatch, adaptive, room, pass), e.g. to profile one; the reference
                           raw_script_per_s always
                           runs, and the floor (floor_publish_us, floor_consume_us) with
                           publish, bulk, consume or deep
        --deep-10m         fill the deep queue with 10,000,000 jobs (quick: 1,000,000) instead
                           of 1,000,000: consume_per_s_10m and rank_us_p99_10m instead of
                           consume_per_s_1m and rank_us_p99 (about 3 GB of Redis memory; the
                           fill alone takes one to two minutes)
        --embedded-redis   start the bundled redis-server (libc allocator) even when one is
                           installed; by default the bench starts LINEUP_REDIS_SERVER, else the
                           redis-server on the PATH, else the bundled one
        --redis-url URL    load this Redis instead of starting one (default: LINEUP_REDIS_URL,
                           else a redis-server of its own on a free port of 127.0.0.1)
        --server-jar PATH  the server jar for the HTTP figures
                           (default: LINEUP_SERVER_JAR, else lineup-server/target/lineup-server.jar)
        --room-streams N   open N idle event streams for room_streams_idle_cpu and
                           room_join_ms_p99 (default: 20,000; quick: 2,000); each is an open
                           file of the server and of the bench, so N stays under both
                           processes' open-files limit (ulimit -n)
      """;

  /**
   * Reads the command line; the environment fills what it leaves out.
   *
   * @throws IllegalArgumentException for an unknown or incomplete option
   */
  static BenchOptions parse(List<String> args, java.util.Map<String, String> env) {
    Counts counts = Counts.full();
    boolean json = false;
    boolean commandStats = false;
    boolean embeddedRedis = false;
    boolean deepTenMillion = false;
    int roomStreams = 0;
    Set<ScenarioGroup> only = EnumSet.noneOf(ScenarioGroup.class);
    String redisUrl = blankToNull(env.get("LINEUP_REDIS_URL"));
    String jar = blankToNull(env.get("LINEUP_SERVER_JAR"));
    Path serverJar = jar == null ? DEFAULT_SERVER_JAR : Path.of(jar);
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      switch (arg) {
        case "--quick" -> counts = Counts.quick();
        case "--smoke" -> counts = Counts.smoke();
        case "--json" -> json = true;
        case "--commandstats" -> commandStats = true;
        case "--embedded-redis" -> embeddedRedis = true;
        case "--deep-10m" -> deepTenMillion = true;
        case "--redis-url" -> redisUrl = value(args, ++i, arg);
        case "--server-jar" -> serverJar = Path.of(value(args, ++i, arg));
        case "--room-streams" -> roomStreams = positive(value(args, ++i, arg), arg);
        case "--only" -> {
          for (String name : value(args, ++i, arg).split(",")) {
            only.add(ScenarioGroup.named(name.trim()));
          }
        }
        default -> throw new IllegalArgumentException("Unknown option " + arg);
      }
    }
    return new BenchOptions(
        counts,
        json,
        redisUrl,
        serverJar,
        commandStats,
        only,
        embeddedRedis,
        deepTenMillion,
        roomStreams);
  }

  private static int positive(String value, String option) {
    try {
      int n = Integer.parseInt(value);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Said below.
    }
    throw new IllegalArgumentException(option + " needs a positive whole number, not " + value);
  }

  private static String value(List<String> args, int index, String option) {
    if (index >= args.size()) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args.get(index);
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
