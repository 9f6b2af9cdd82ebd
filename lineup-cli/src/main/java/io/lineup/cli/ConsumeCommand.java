package io.lineup.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.client.LeaseLostException;
import io.lineup.client.LeaseRefusedException;
import io.lineup.client.LeasedJob;
import io.lineup.client.LineupClient;
import io.lineup.client.QueueName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lineup consume QUEUE}: prints jobs, or runs a shell command for each. */
@Command(
    name = "consume",
    mixinStandardHelpOptions = true,
    description = {
      "Print jobs, or run a shell command per job (acked on exit 0).",
      "Lease jobs and print them (each printed job is acked), or with --exec run a shell command"
          + " per job: the payload on its standard input, LINEUP_QUEUE, LINEUP_JOB_ID,"
          + " LINEUP_ATTEMPT and LINEUP_MAX_ATTEMPTS in its environment. Exit status 0 acks the"
          + " job (its standard output, when there is any, is the result); any other nacks it.",
      "Stops after --max jobs, or when no job came within --wait, unless --follow.",
      "Example: lineup consume shop/close-unpaid --exec './close-order.sh' --follow"
    })
final class ConsumeCommand implements Callable<Integer> {
  @Mixin Connection connection;
  @Mixin Output output;

  @Parameters(index = "0", paramLabel = "QUEUE", description = "namespace/name")
  String queue;

  @Option(names = "--exec", paramLabel = "COMMAND", description = "Run this with sh -c per job.")
  String exec;

  @Option(names = "--max", description = "Stop after this many jobs (default: no limit).")
  int max;

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      description = "Longest wait for a job before stopping (default 5s; up to 300s).")
  String wait = "5s";

  @Option(names = "--follow", description = "Keep waiting for jobs until interrupted.")
  boolean follow;

  @Option(
      names = "--concurrency",
      description = "Jobs handled at once with --exec (default 1, up to 1000).")
  int concurrency = 1;

  private final AtomicInteger acked = new AtomicInteger();
  private final AtomicInteger failed = new AtomicInteger();
  private ScheduledExecutorService heartbeats;

  @Override
  public Integer call() throws Exception {
    QueueName name = Queues.parse(queue);
    Duration waitFor = Durations.parse("--wait", wait);
    if (waitFor.compareTo(LineupClient.MAX_LEASE_WAIT) > 0) {
      throw new CliException(ExitCodes.USAGE, "--wait: at most 300s");
    }
    if (concurrency < 1 || concurrency > LineupClient.MAX_BATCH) {
      throw new CliException(ExitCodes.USAGE, "--concurrency: 1 to 1000");
    }
    if (max < 0) {
      throw new CliException(ExitCodes.USAGE, "--max: 0 or more");
    }
    heartbeats =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("lineup-consume-heartbeat").factory());
    int handled = 0;
    try (LineupClient client = connection.connect()) {
      while (max == 0 || handled < max) {
        int want = exec == null ? 1 : concurrency;
        if (max > 0) {
          want = Math.min(want, max - handled);
        }
        List<LeasedJob> jobs;
        try {
          jobs = client.lease(name, want, waitFor);
        } catch (LeaseRefusedException limited) {
          Thread.sleep(limited.retryAfter().toMillis());
          continue;
        }
        if (jobs.isEmpty()) {
          if (follow) {
            continue;
          }
          break;
        }
        if (exec == null) {
          for (LeasedJob job : jobs) {
            print(job);
            client.ack(job, null);
            acked.incrementAndGet();
          }
        } else {
          runAll(client, jobs);
        }
        handled += jobs.size();
      }
    } finally {
      heartbeats.shutdownNow();
    }
    if (exec != null) {
      String summary = handled + " jobs: " + acked.get() + " acked, " + failed.get() + " failed";
      if (output.json) {
        ObjectNode node = Output.MAPPER.createObjectNode();
        node.put("jobs", handled);
        node.put("acked", acked.get());
        node.put("failed", failed.get());
        output.json(node);
      } else {
        System.err.println("lineup: " + summary);
      }
    }
    return failed.get() > 0 ? ExitCodes.JOBS_FAILED : ExitCodes.OK;
  }

  private void print(LeasedJob job) {
    if (output.json) {
      output.json(Output.leased(job));
    } else {
      output.out.println(
          job.id()
              + "  attempt "
              + job.attempt()
              + "/"
              + job.maxAttempts()
              + "  "
              + Output.bytes(job.payload()));
      output.out.flush();
    }
  }

  private void runAll(LineupClient client, List<LeasedJob> jobs) throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    for (LeasedJob job : jobs) {
      threads.add(Thread.ofVirtual().start(() -> runOne(client, job)));
    }
    for (Thread thread : threads) {
      thread.join();
    }
  }

  private void runOne(LineupClient client, LeasedJob job) {
    ScheduledFuture<?> beat = keepLease(client, job);
    int status;
    byte[] stdout;
    try {
      ProcessBuilder builder = new ProcessBuilder("sh", "-c", exec);
      builder.redirectError(ProcessBuilder.Redirect.INHERIT);
      Map<String, String> env = builder.environment();
      env.put("LINEUP_QUEUE", job.queue().toString());
      env.put("LINEUP_JOB_ID", job.id());
      env.put("LINEUP_ATTEMPT", Integer.toString(job.attempt()));
      env.put("LINEUP_MAX_ATTEMPTS", Integer.toString(job.maxAttempts()));
      Process process = builder.start();
      Thread feeder =
          Thread.ofVirtual()
              .start(() -> {
                try (OutputStream in = process.getOutputStream()) {
                  in.write(job.payload());
                } catch (IOException closedEarly) {
                  // The command did not read its input; that is its choice.
                }
              });
      stdout = readAll(process.getInputStream());
      status = process.waitFor();
      feeder.join();
    } catch (IOException e) {
      beat.cancel(false);
      failed.incrementAndGet();
      nackQuietly(client, job, "could not run the command: " + e.getMessage());
      return;
    } catch (InterruptedException e) {
      beat.cancel(false);
      Thread.currentThread().interrupt();
      return;
    }
    beat.cancel(false);
    if (status == 0) {
      try {
        client.ack(job, result(stdout));
        acked.incrementAndGet();
      } catch (LeaseLostException lost) {
        failed.incrementAndGet();
        System.err.println(
            "lineup: job " + job.id() + " finished after its lease was lost: " + lost.getMessage());
      }
    } else {
      failed.incrementAndGet();
      nackQuietly(client, job, "the command exited with status " + status);
    }
  }

  private static String result(byte[] stdout) {
    String text = new String(stdout, StandardCharsets.UTF_8).strip();
    if (text.isEmpty()) {
      return null;
    }
    try {
      Output.MAPPER.readTree(text);
      return text;
    } catch (IOException notJson) {
      return Output.MAPPER.getNodeFactory().textNode(text).toString();
    }
  }

  private static void nackQuietly(LineupClient client, LeasedJob job, String error) {
    try {
      client.nack(job, error, null);
    } catch (LeaseLostException lost) {
      // Its lease ended already; the job is delivered again or finished elsewhere.
    }
  }

  /** Extends the job's lease when half of it is left, until cancelled. */
  private ScheduledFuture<?> keepLease(LineupClient client, LeasedJob job) {
    long half = Math.max(50, (job.leaseDeadline().toEpochMilli() - System.currentTimeMillis()) / 2);
    return heartbeats.scheduleAtFixedRate(
        () -> {
          try {
            client.extend(job, null);
          } catch (RuntimeException e) {
            // The next beat tries again; a lost lease shows when the job is settled.
          }
        },
        half,
        half,
        TimeUnit.MILLISECONDS);
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    in.transferTo(buffer);
    return buffer.toByteArray();
  }
}
