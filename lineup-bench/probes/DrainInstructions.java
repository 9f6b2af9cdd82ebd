import io.lineup.core.model.AckRequest;
import io.lineup.core.ArchiveOutbox;
import io.lineup.core.AcksThenLeases;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The engine's side of drain-instructions (run by that script, not alone): publishes `jobs` jobs
 * of 100 bytes (PAYLOAD_BYTES in the environment sets another size) to a fresh queue in bulk calls
 * of 100 (BULK in the environment sets another size) with maintenance off, prints FILLED, waits
 * for a line on standard input (while the script switches counting on), then drains the queue in a
 * fixed shape, so that nothing depends on timing: leases of up to 256 jobs (LEASE in the
 * environment sets another count), each call carrying the acks of the jobs the previous call
 * leased. Prints DRAINED with the jobs and calls.
 *
 * <p>With DELAYED = delayed, the jobs are published with a delay of 1 ms, so the drain's leases
 * first move them from the delayed set to the line (up to 1,000 a call).
 *
 * <p>With publish, it prints FILLED before publishing, waits for the line, then publishes and stops
 * (prints PUBLISHED with the jobs), so that the count is the publishes'.
 *
 * <p>With archived, archiving is on for the queue (its outbox takes every job the drain ends; no
 * archiver reads it), so the count includes what the outbox costs the acks.
 *
 * <p>With floor, the bench's floor scripts (floor_publish.lua, floor_consume.lua from the jar) do
 * the same instead of the engine: the same jobs, the same drain shape, no tokens, attempts, events,
 * retries, retention or limits.
 *
 * <p>With fair, the queue is fair and each job's key is drawn at random from KEYS keys (default
 * 1,000), as the bench's fair_consume_per_s does.
 *
 * <p>Usage: java -cp lineup-bench.jar DrainInstructions.java REDIS_URI JOBS [delayed|publish|archived|floor|fair]
 */
public class DrainInstructions {
  private static final int BULK = Integer.parseInt(System.getenv().getOrDefault("BULK", "100"));
  private static final int LEASE = Integer.parseInt(System.getenv().getOrDefault("LEASE", "256"));

  public static void main(String[] args) throws Exception {
    String uri = args[0];
    int jobs = Integer.parseInt(args[1]);
    boolean delayed = args.length > 2 && args[2].equals("delayed");
    boolean publishOnly = args.length > 2 && args[2].equals("publish");
    boolean archived = args.length > 2 && args[2].equals("archived");
    boolean fair = args.length > 2 && args[2].equals("fair");
    int keys = Integer.parseInt(System.getenv().getOrDefault("KEYS", "1000"));
    java.util.Random random = new java.util.Random(52);
    if (args.length > 2 && args[2].equals("floor")) {
      floor(uri, jobs);
      return;
    }
    // Under valgrind on a loaded host one call can take longer than the default 5 s.
    try (Lineup lineup =
        Lineup.connect(
            LineupOptions.builder(uri)
                .maintenance(false)
                .commandTimeout(java.time.Duration.ofSeconds(120))
                .build())) {
      QueueName queue = QueueName.of("probe", "drain-" + System.nanoTime());
      if (archived) {
        lineup.archiveOutbox().enable(queue, ArchiveOutbox.MAX_ENTRIES);
      }
      if (fair) {
        lineup.configure(queue, io.lineup.core.model.QueueSettings.builder().fair(true).build());
      }
      byte[] payload = new byte[Integer.parseInt(System.getenv().getOrDefault("PAYLOAD_BYTES", "100"))];
      Arrays.fill(payload, (byte) 'x');
      if (publishOnly) {
        System.out.println("FILLED");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in)).readLine();
      }
      for (int published = 0; published < jobs; published += BULK) {
        List<NewJob> bulk = new ArrayList<>();
        for (int k = 0; k < Math.min(BULK, jobs - published); k++) {
          NewJob job = delayed ? NewJob.of(payload).delay(Duration.ofMillis(1)) : NewJob.of(payload);
          bulk.add(fair ? job.key("k" + random.nextInt(keys)) : job);
        }
        lineup.publishAll(queue, bulk);
      }
      if (publishOnly) {
        System.out.println("PUBLISHED " + jobs + " jobs");
        return;
      }
      if (delayed) {
        Thread.sleep(100); // every job due before the drain starts
      }
      System.out.println("FILLED");
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in)).readLine();
      List<AckRequest> acks = List.of();
      int acked = 0;
      int calls = 0;
      while (true) {
        AcksThenLeases answer = lineup.ackThenLease(queue, acks, LEASE, Duration.ZERO);
        calls++;
        acked += acks.size();
        List<LeasedJob> leased = answer.leases().jobs();
        if (leased.isEmpty()) {
          break;
        }
        acks = leased.stream().map(AckRequest::of).toList();
      }
      System.out.println("DRAINED " + acked + " jobs in " + calls + " calls");
    }
  }

  private static void floor(String uri, int jobs) throws IOException {
    RedisClient client = RedisClient.create(uri);
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      RedisCommands<String, String> redis = connection.sync();
      String publish = redis.scriptLoad(resource("io/lineup/bench/floor_publish.lua"));
      String consume = redis.scriptLoad(resource("io/lineup/bench/floor_consume.lua"));
      String[] keys = {"{floor}:line", "{floor}:records", "{floor}:leased"};
      String payload = "x".repeat(Integer.parseInt(System.getenv().getOrDefault("PAYLOAD_BYTES", "100")));
      for (int first = 0; first < jobs; first += BULK) {
        List<String> values = new ArrayList<>();
        for (int arrival = first; arrival < Math.min(jobs, first + BULK); arrival++) {
          values.add(Integer.toString(arrival));
          values.add("~" + Integer.toString(arrival, 36));
          values.add(payload);
        }
        redis.evalsha(publish, ScriptOutputType.INTEGER, new String[] {keys[0], keys[1]},
            values.toArray(String[]::new));
      }
      System.out.println("FILLED");
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in)).readLine();
      String deadline = Long.toString(System.currentTimeMillis() + 600_000);
      List<String> acks = List.of();
      int acked = 0;
      int calls = 0;
      while (true) {
        List<String> values = new ArrayList<>(List.of(Integer.toString(LEASE), deadline));
        values.addAll(acks);
        List<Object> reply =
            redis.evalsha(consume, ScriptOutputType.MULTI, keys, values.toArray(String[]::new));
        calls++;
        acked += acks.size();
        List<String> leased = new ArrayList<>();
        for (int i = 0; i < reply.size(); i += 2) {
          leased.add((String) reply.get(i));
        }
        if (leased.isEmpty()) {
          break;
        }
        acks = leased;
      }
      System.out.println("DRAINED " + acked + " jobs in " + calls + " calls");
    } finally {
      client.shutdown();
    }
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = ClassLoader.getSystemClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
