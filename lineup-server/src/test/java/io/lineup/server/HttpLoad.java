package io.lineup.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Producers and workers that talk to Lineup servers over HTTP the way a careful client does: ids of
 * their own (so a retried publish cannot make a second job), a retry on 503 or a dropped connection
 * after a pause, the next server when one fails; every outcome written to a {@link JobLedger}.
 */
final class HttpLoad implements AutoCloseable {
  /**
   * The longest wait for a replica of a durable batch: short, since a master that has just taken
   * over has no replica yet and every durable batch then waits this long.
   */
  static final int DURABLE_TIMEOUT_MS = 300;

  /** Pause after a 503 or a dropped connection before the next try. */
  static final Duration BACK_OFF = Duration.ofMillis(200);

  private final List<Api> servers;
  private final String namespace;
  private final List<String> queues;
  private final JobLedger ledger;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicLong unavailableAnswers = new AtomicLong();
  private final AtomicInteger published = new AtomicInteger();

  HttpLoad(List<Api> servers, String namespace, List<String> queues, JobLedger ledger) {
    this.servers = List.copyOf(servers);
    this.namespace = namespace;
    this.queues = List.copyOf(queues);
    this.ledger = ledger;
  }

  /**
   * Starts producers that publish {@code jobs} jobs between them in batches of {@code batch}, round
   * robin over the queues and servers; every {@code durableEvery}-th batch asks for one replica (0:
   * none does).
   */
  HttpLoad produce(int producers, int jobs, int batch, int durableEvery) {
    AtomicInteger nextBatch = new AtomicInteger();
    int batches = (jobs + batch - 1) / batch;
    for (int p = 0; p < producers; p++) {
      threads.add(
          Thread.ofVirtual()
              .name("producer-" + p)
              .start(() -> {
                int b;
                while (!stopping.get() && (b = nextBatch.getAndIncrement()) < batches) {
                  int first = b * batch;
                  int size = Math.min(batch, jobs - first);
                  boolean durable = durableEvery > 0 && b % durableEvery == 0;
                  publishBatch(b, first, size, durable);
                }
              }));
    }
    return this;
  }

  private void publishBatch(int b, int first, int size, boolean durable) {
    String queue = queues.get(b % queues.size());
    StringBuilder body = new StringBuilder("[");
    List<String> ids = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      String id = queue + "-" + (first + i);
      ids.add(id);
      body.append(i == 0 ? "" : ",")
          .append("{\"id\":\"")
          .append(id)
          .append("\",\"payload\":")
          .append(first + i)
          .append('}');
    }
    body.append(']');
    String path =
        "/v1/queues/"
            + namespace
            + "/"
            + queue
            + "/jobs"
            + (durable ? "?durable_replicas=1&durable_timeout_ms=" + DURABLE_TIMEOUT_MS : "");
    for (int attempt = 0; !stopping.get(); attempt++) {
      Reply reply =
          call(servers.get((b + attempt) % servers.size()), "POST", path, body.toString());
      if (reply != null && reply.status() == 201) {
        JobLedger.Publish how = durable ? JobLedger.Publish.DURABLE : JobLedger.Publish.PLAIN;
        ids.forEach(id -> ledger.published(id, how));
        published.addAndGet(size);
        return;
      }
      if (reply != null && "replication_timeout".equals(reply.field("error"))) {
        ids.forEach(id -> ledger.published(id, JobLedger.Publish.UNCONFIRMED));
        published.addAndGet(size);
        return;
      }
      pause();
    }
  }

  /**
   * Starts {@code workers} workers, each leasing up to {@code count} jobs at a time from a group of
   * at most 16 queues (a lease takes up to 16) and acking each, until {@link #close()}.
   */
  HttpLoad work(int workers, int count) {
    List<String> groups = new ArrayList<>();
    for (int from = 0; from < queues.size(); from += 16) {
      groups.add(String.join(",", queues.subList(from, Math.min(queues.size(), from + 16))));
    }
    for (int w = 0; w < workers; w++) {
      String group = groups.get(w % groups.size());
      int first = w;
      threads.add(
          Thread.ofVirtual()
              .name("worker-" + w)
              .start(() -> {
                int server = first;
                while (!stopping.get()) {
                  Api api = servers.get(server % servers.size());
                  Reply reply =
                      call(
                          api,
                          "POST",
                          "/v1/queues/" + namespace + "/" + group + "/leases",
                          "{\"count\": " + count + ", \"wait_ms\": 500}");
                  if (reply == null || reply.status() >= 500) {
                    server++;
                    pause();
                  } else if (reply.status() == 200) {
                    for (JsonNode job : reply.json().get("jobs")) {
                      ledger.leased(job.get("id").asText());
                      ack(server, job);
                    }
                  }
                }
              }));
    }
    return this;
  }

  private void ack(int server, JsonNode job) {
    String queue = job.get("queue").asText();
    String path = "/v1/queues/" + queue + "/jobs/" + job.get("id").asText() + "/ack";
    String body = "{\"token\": \"" + job.get("token").asText() + "\"}";
    for (int attempt = 0; !stopping.get(); attempt++) {
      Reply reply = call(servers.get((server + attempt) % servers.size()), "POST", path, body);
      if (reply != null && reply.status() == 204) {
        ledger.acked(job.get("id").asText());
        return;
      }
      if (reply != null && reply.status() < 500) {
        return; // lease_lost: it expired meanwhile and will be delivered again
      }
      pause();
    }
  }

  private Reply call(Api api, String method, String path, String body) {
    try {
      Reply reply = api.send(method, path, body, Duration.ofSeconds(10));
      if (reply.status() == 503) {
        unavailableAnswers.incrementAndGet();
      }
      return reply;
    } catch (UncheckedIOException | IllegalStateException dropped) {
      unavailableAnswers.incrementAndGet();
      return null;
    }
  }

  private static void pause() {
    try {
      Thread.sleep(BACK_OFF);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Publishes answered so far (201 or replication_timeout). */
  int published() {
    return published.get();
  }

  /** 503 answers and dropped connections seen so far. */
  long unavailableAnswers() {
    return unavailableAnswers.get();
  }

  /** Stops every producer and worker and waits for them. */
  @Override
  public void close() {
    stopping.set(true);
    for (Thread thread : threads) {
      try {
        thread.join(Duration.ofSeconds(15));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
