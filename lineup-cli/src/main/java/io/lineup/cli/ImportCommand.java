package io.lineup.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.PublishFields;
import io.lineup.api.resource.PublishResult;
import io.lineup.client.InvalidRequestException;
import io.lineup.client.LineupClient;
import io.lineup.client.LineupClientException;
import io.lineup.client.NewJob;
import io.lineup.client.QueueName;
import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lineup import QUEUE}: bulk publish from NDJSON. */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description = {
      "Bulk publish from NDJSON, with a progress bar and a summary.",
      "Publish many jobs from NDJSON (one JSON value per line) on standard input or --file. Each"
          + " line is a job with the publish route's fields ({\"payload\": ..., \"priority\": 5,"
          + " \"delay_ms\": 60000, \"id\": \"order-42\"}), or with --payloads the payload itself."
          + " Blank lines are skipped.",
      "Jobs go in batches of --batch (each batch atomic), --in-flight batches at a time. A bad"
          + " line stops the import with its line number; the batches before it stay published.",
      "Shows a progress bar on a terminal (--progress / --no-progress), then a summary with the"
          + " rate.",
      "Example: lineup import shop/reminders --file reminders.ndjson"
    })
final class ImportCommand implements Callable<Integer> {
  /** The fields of a job line: the publish route's. */
  private static final Set<String> FIELDS = PublishFields.ALL;

  private static final Pattern JOB_FIELD = Pattern.compile("^jobs\\[(\\d+)]\\.?(.*)$");

  @Mixin Connection connection;
  @Mixin Output output;

  @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name")
  String queue;

  @Option(
      names = "--file",
      paramLabel = "FILE",
      description = "Read this file, not standard input.")
  Path file;

  @Option(names = "--payloads", description = "Each line is a payload, not a job object.")
  boolean payloads;

  @Option(names = "--batch", description = "Jobs per publish call, 1 to 1000 (default 500).")
  int batch = 500;

  @Option(names = "--in-flight", description = "Publish calls at once, 1 to 64 (default 4).")
  int inFlight = 4;

  @Option(
      names = "--progress",
      negatable = true,
      description = "Show a progress bar on standard error (default: when it is a terminal).")
  Boolean progress;

  private final AtomicLong published = new AtomicLong();
  private final AtomicLong created = new AtomicLong();
  private final AtomicLong bytesRead = new AtomicLong();
  private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

  /** A batch and the line number of its first job. */
  private record Batch(long firstLine, List<Long> lines, List<NewJob> jobs) {}

  @Override
  public Integer call() throws Exception {
    QueueName name = Queues.parse(queue);
    if (batch < 1 || batch > LineupClient.MAX_BATCH) {
      throw new CliException(ExitCodes.USAGE, "--batch: 1 to 1000");
    }
    if (inFlight < 1 || inFlight > 64) {
      throw new CliException(ExitCodes.USAGE, "--in-flight: 1 to 64");
    }
    long totalBytes = -1;
    InputStream raw;
    if (file == null) {
      raw = output.in();
    } else {
      try {
        raw = Files.newInputStream(file);
        totalBytes = Files.size(file);
      } catch (NoSuchFileException e) {
        throw new CliException(ExitCodes.USAGE, "--file: no such file: " + file);
      }
    }
    boolean showProgress = progress != null ? progress : System.console() != null;
    Instant start = Instant.now();
    Progress bar = showProgress ? new Progress(totalBytes, start).start() : null;
    Semaphore slots = new Semaphore(inFlight);
    List<Thread> senders = new ArrayList<>();
    long lines = 0;
    try (LineupClient client = connection.connect();
        BufferedReader reader =
            new BufferedReader(
                new InputStreamReader(new Counting(raw), StandardCharsets.UTF_8), 1 << 16)) {
      List<NewJob> jobs = new ArrayList<>(batch);
      List<Long> numbers = new ArrayList<>(batch);
      String line;
      while (failure.get() == null && (line = reader.readLine()) != null) {
        lines++;
        if (line.isBlank()) {
          continue;
        }
        jobs.add(parse(lines, line));
        numbers.add(lines);
        if (jobs.size() == batch) {
          send(client, slots, senders, new Batch(numbers.get(0), numbers, jobs));
          jobs = new ArrayList<>(batch);
          numbers = new ArrayList<>(batch);
        }
      }
      if (!jobs.isEmpty() && failure.get() == null) {
        send(client, slots, senders, new Batch(numbers.get(0), numbers, jobs));
      }
      for (Thread sender : senders) {
        sender.join();
      }
    } catch (CliException e) {
      for (Thread sender : senders) {
        sender.join();
      }
      failure.compareAndSet(null, e);
    } finally {
      if (bar != null) {
        bar.stop();
      }
    }
    Duration took = Duration.between(start, Instant.now());
    double seconds = Math.max(0.001, took.toNanos() / 1e9);
    double rate = published.get() / seconds;
    if (output.json) {
      ObjectNode summary = Output.MAPPER.createObjectNode();
      summary.put("queue", name.toString());
      summary.put("published", published.get());
      summary.put("created", created.get());
      summary.put("existing", published.get() - created.get());
      summary.put("seconds", Math.round(seconds * 1000) / 1000.0);
      summary.put("jobs_per_s", Math.round(rate));
      summary.put("complete", failure.get() == null);
      output.json(summary);
    } else {
      output
          .out()
          .printf(
              Locale.ROOT,
              "imported %d jobs into %s in %s: %.0f jobs/s (%d created, %d already there)%n",
              published.get(),
              name,
              Durations.human(took),
              rate,
              created.get(),
              published.get() - created.get());
      output.out().flush();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return ExitCodes.OK;
  }

  private void send(LineupClient client, Semaphore slots, List<Thread> senders, Batch batch)
      throws InterruptedException {
    slots.acquire();
    senders.add(
        Thread.ofVirtual()
            .start(() -> {
              try {
                if (failure.get() != null) {
                  return;
                }
                List<PublishResult> results = client.publishAll(queueName(), batch.jobs());
                published.addAndGet(results.size());
                created.addAndGet(results.stream().filter(PublishResult::created).count());
              } catch (InvalidRequestException e) {
                failure.compareAndSet(null, atLine(batch, e));
              } catch (LineupClientException e) {
                failure.compareAndSet(null, e);
              } finally {
                slots.release();
              }
            }));
  }

  private QueueName queueName() {
    return QueueName.parse(queue);
  }

  /** The server named the job at fault as jobs[i]: say which line it came from. */
  private static RuntimeException atLine(Batch batch, InvalidRequestException e) {
    if (e.field() != null) {
      Matcher m = JOB_FIELD.matcher(e.field());
      if (m.matches()) {
        int index = Integer.parseInt(m.group(1));
        if (index < batch.lines().size()) {
          String field = m.group(2).isEmpty() ? "" : " (" + m.group(2) + ")";
          return new CliException(
              ExitCodes.USAGE, "line " + batch.lines().get(index) + field + ": " + e.getMessage());
        }
      }
    }
    return e;
  }

  private NewJob parse(long number, String line) {
    if (payloads) {
      try {
        return NewJob.ofJson(line);
      } catch (IllegalArgumentException e) {
        throw new CliException(ExitCodes.USAGE, "line " + number + ": not JSON: " + e.getMessage());
      }
    }
    JsonNode node;
    try {
      node = Output.MAPPER.readTree(line);
    } catch (IOException e) {
      throw new CliException(ExitCodes.USAGE, "line " + number + ": not JSON");
    }
    if (!node.isObject()) {
      throw new CliException(
          ExitCodes.USAGE,
          "line " + number + ": a job is a JSON object with a payload (or use --payloads)");
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String field = names.next();
      if (!FIELDS.contains(field)) {
        throw new CliException(
            ExitCodes.USAGE, "line " + number + ": unknown field '" + field + "'");
      }
    }
    NewJob job;
    if (node.hasNonNull(PublishFields.PAYLOAD_BASE64)) {
      try {
        job =
            NewJob.of(Base64.getDecoder().decode(node.get(PublishFields.PAYLOAD_BASE64).asText()));
      } catch (IllegalArgumentException e) {
        throw new CliException(
            ExitCodes.USAGE, "line " + number + ": payload_base64 is not base64");
      }
    } else if (node.has(PublishFields.PAYLOAD)) {
      job = NewJob.ofJson(node.get(PublishFields.PAYLOAD).toString());
    } else {
      throw new CliException(
          ExitCodes.USAGE,
          "line " + number + ": no payload (each line is {\"payload\": ...}, or use --payloads)");
    }
    try {
      if (node.hasNonNull(PublishFields.ID)) {
        job.id(node.get(PublishFields.ID).asText());
      }
      if (node.hasNonNull(PublishFields.PRIORITY)) {
        job.priority(integer(number, node, PublishFields.PRIORITY));
      }
      if (node.hasNonNull(PublishFields.DELAY_MS)) {
        job.delay(Duration.ofMillis(number(number, node, PublishFields.DELAY_MS)));
      }
      if (node.hasNonNull(PublishFields.RUN_AT)) {
        job.runAt(Instant.ofEpochMilli(number(number, node, PublishFields.RUN_AT)));
      }
      if (node.hasNonNull(PublishFields.MAX_ATTEMPTS)) {
        job.maxAttempts(integer(number, node, PublishFields.MAX_ATTEMPTS));
      }
      if (node.hasNonNull(PublishFields.TTR_MS)) {
        job.timeToRun(Duration.ofMillis(number(number, node, PublishFields.TTR_MS)));
      }
      if (node.hasNonNull(PublishFields.TTL_MS)) {
        job.ttl(Duration.ofMillis(number(number, node, PublishFields.TTL_MS)));
      }
      if (node.hasNonNull(PublishFields.UNIQUE_KEY)
          || node.hasNonNull(PublishFields.UNIQUE_WINDOW_MS)) {
        if (!node.hasNonNull(PublishFields.UNIQUE_KEY)
            || !node.hasNonNull(PublishFields.UNIQUE_WINDOW_MS)) {
          throw new CliException(
              ExitCodes.USAGE, "line " + number + ": unique_key and unique_window_ms go together");
        }
        job.uniqueKey(
            node.get(PublishFields.UNIQUE_KEY).asText(),
            Duration.ofMillis(number(number, node, PublishFields.UNIQUE_WINDOW_MS)));
      }
      if (node.hasNonNull(PublishFields.KEY)) {
        job.key(node.get(PublishFields.KEY).asText());
      }
    } catch (ArithmeticException e) {
      throw new CliException(ExitCodes.USAGE, "line " + number + ": a number is out of range");
    }
    return job;
  }

  private static long number(long line, JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (!value.isNumber() || !value.canConvertToLong()) {
      throw new CliException(
          ExitCodes.USAGE, "line " + line + ": " + field + " must be a whole number");
    }
    return value.asLong();
  }

  private static int integer(long line, JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (!value.isNumber() || !value.canConvertToInt()) {
      throw new CliException(
          ExitCodes.USAGE, "line " + line + ": " + field + " must be a whole number");
    }
    return value.asInt();
  }

  /** Counts the bytes read, for the progress bar. */
  private final class Counting extends FilterInputStream {
    Counting(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        bytesRead.incrementAndGet();
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0) {
        bytesRead.addAndGet(n);
      }
      return n;
    }
  }

  /** A one-line progress bar on standard error, redrawn five times a second. */
  private final class Progress {
    private static final int WIDTH = 30;
    private final long totalBytes;
    private final Instant start;
    private Thread thread;

    Progress(long totalBytes, Instant start) {
      this.totalBytes = totalBytes;
      this.start = start;
    }

    Progress start() {
      thread =
          Thread.ofPlatform()
              .daemon()
              .name("lineup-import-progress")
              .start(() -> {
                try {
                  while (true) {
                    draw();
                    Thread.sleep(200);
                  }
                } catch (InterruptedException stopped) {
                  // the import is over
                }
              });
      return this;
    }

    void stop() throws InterruptedException {
      thread.interrupt();
      thread.join();
      draw();
      output.err().println();
    }

    private void draw() {
      double seconds = Math.max(0.001, Duration.between(start, Instant.now()).toNanos() / 1e9);
      String rate = String.format(Locale.ROOT, "%,.0f jobs/s", published.get() / seconds);
      String text;
      if (totalBytes > 0) {
        double done = Math.min(1.0, (double) bytesRead.get() / totalBytes);
        int filled = (int) Math.round(done * WIDTH);
        text =
            String.format(
                Locale.ROOT,
                "[%s%s] %3.0f%%  %,d jobs  %s",
                "#".repeat(filled),
                ".".repeat(WIDTH - filled),
                done * 100,
                published.get(),
                rate);
      } else {
        text = String.format(Locale.ROOT, "%,d jobs  %s", published.get(), rate);
      }
      output.err().print("\r" + text);
      output.err().flush();
    }
  }
}
