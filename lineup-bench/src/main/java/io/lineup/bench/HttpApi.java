package io.lineup.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lineup.core.QueueName;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The few routes of the HTTP contract the bench loads (publish, lease, ack), called with {@link
 * HttpClient} over HTTP/1.1 on 127.0.0.1 with the admin token. Each call blocks its (virtual)
 * thread; an answer other than the contract's is an error.
 */
final class HttpApi implements AutoCloseable {
  /** Longest wait for one answer. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A leased job: what an ack needs. */
  record Lease(String id, String token) {}

  private final URI base;
  private final String authorization;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final HttpClient client;

  HttpApi(URI base, String token) {
    this.base = base;
    this.authorization = "Bearer " + token;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(REQUEST_TIMEOUT)
            .executor(executor)
            .build();
  }

  /** POST …/jobs with one job of this JSON payload; expects 201. */
  void publish(QueueName queue, String payloadJson) throws IOException, InterruptedException {
    send(jobsPath(queue), "{\"payload\":" + payloadJson + "}", 201);
  }

  /** POST …/leases for up to {@code count} jobs without waiting; none when the line is empty. */
  List<Lease> lease(QueueName queue, int count) throws IOException, InterruptedException {
    HttpResponse<String> response =
        send(queuePath(queue) + "/leases", "{\"count\":" + count + ",\"wait_ms\":0}", 200, 204);
    List<Lease> leases = new ArrayList<>();
    if (response.statusCode() == 204) {
      return leases;
    }
    for (JsonNode job : JSON.readTree(response.body()).path("jobs")) {
      leases.add(new Lease(job.path("id").asText(), job.path("token").asText()));
    }
    return leases;
  }

  /** POST …/jobs/{id}/ack; expects 204. */
  void ack(QueueName queue, Lease lease) throws IOException, InterruptedException {
    String body = JSON.writeValueAsString(java.util.Map.of("token", lease.token()));
    send(jobsPath(queue) + "/" + lease.id() + "/ack", body, 204);
  }

  private static String queuePath(QueueName queue) {
    return "/v1/queues/" + queue.namespace() + "/" + queue.name();
  }

  private static String jobsPath(QueueName queue) {
    return queuePath(queue) + "/jobs";
  }

  private HttpResponse<String> send(String path, String body, int... expected)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(REQUEST_TIMEOUT)
            .header("Authorization", authorization)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    for (int status : expected) {
      if (response.statusCode() == status) {
        return response;
      }
    }
    throw new IOException(
        "POST " + path + " answered " + response.statusCode() + ": " + response.body());
  }

  @Override
  public void close() {
    client.close();
    executor.close();
  }
}
