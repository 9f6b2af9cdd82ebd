package io.lineup.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lineup.core.model.QueueName;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The server's HTTP API as the HTTP scenarios use it: publish, lease, ack (one or many), on
 * 127.0.0.1 with the admin token, over pooled keep-alive {@link Http11Connection}s (one per caller
 * at a time). Each call blocks its (virtual) thread.
 */
final class HttpApi implements AutoCloseable {
  /** Longest wait for one answer. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  /**
   * Longest a pooled connection is reused after its last answer: well under the server's idle
   * timeout.
   */
  static final Duration MAX_IDLE = Duration.ofSeconds(10);

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A leased job: what an ack needs. */
  record Lease(String id, String token) {}

  private final URI base;
  private final String authorization;
  private final ConcurrentLinkedDeque<Http11Connection> idle = new ConcurrentLinkedDeque<>();

  HttpApi(URI base, String token) {
    this.base = base;
    this.authorization = "Bearer " + token;
  }

  /** POST …/jobs with one job of this JSON payload; expects 201. */
  void publish(QueueName queue, String payloadJson) throws IOException {
    send(jobsPath(queue), "{\"payload\":" + payloadJson + "}", 201);
  }

  /**
   * POST …/jobs with one job of this JSON payload, {@code total} times over {@code connections}
   * keep-alive connections driven by one thread ({@link RepeatedRequest}); every answer must be
   * 201.
   *
   * @return nanoseconds from the first request to the last answer
   */
  long publishRepeatedly(QueueName queue, String payloadJson, int total, int connections)
      throws IOException {
    byte[] request =
        Http11Connection.request(
            "POST",
            jobsPath(queue),
            base.getHost() + ":" + base.getPort(),
            authorization,
            "{\"payload\":" + payloadJson + "}");
    return RepeatedRequest.run(base.getHost(), base.getPort(), request, total, connections, 201);
  }

  /** POST …/leases for up to {@code count} jobs without waiting; none when the line is empty. */
  List<Lease> lease(QueueName queue, int count) throws IOException {
    Http11Connection.Answer answer =
        send(queuePath(queue) + "/leases", "{\"count\":" + count + ",\"wait_ms\":0}", 200, 204);
    List<Lease> leases = new ArrayList<>();
    if (answer.status() == 204) {
      return leases;
    }
    for (JsonNode job : JSON.readTree(answer.body()).path("jobs")) {
      leases.add(new Lease(job.path("id").asText(), job.path("token").asText()));
    }
    return leases;
  }

  /**
   * POST …/acks with all of {@code leases} in one request; expects 200 with every one acked.
   *
   * @throws IOException when the request fails or an ack did not hold
   */
  void ackAll(QueueName queue, List<Lease> leases) throws IOException {
    StringBuilder body = new StringBuilder("{\"acks\":[");
    for (int i = 0; i < leases.size(); i++) {
      body.append(i == 0 ? "" : ",")
          .append("{\"id\":")
          .append(JSON.writeValueAsString(leases.get(i).id()))
          .append(",\"token\":")
          .append(JSON.writeValueAsString(leases.get(i).token()))
          .append('}');
    }
    Http11Connection.Answer answer =
        send(queuePath(queue) + "/acks", body.append("]}").toString(), 200);
    int acked = JSON.readTree(answer.body()).path("acked").asInt(-1);
    if (acked != leases.size()) {
      throw new IOException(
          "POST …/acks acknowledged " + acked + " of " + leases.size() + ": " + answer.body());
    }
  }

  /** POST of a JSON body to any path; returns the answer when its status is one expected. */
  Http11Connection.Answer post(String path, String body, int... expected) throws IOException {
    return send(path, body, expected);
  }

  /** PUT of a JSON body to any path; returns the answer when its status is one expected. */
  Http11Connection.Answer put(String path, String body, int... expected) throws IOException {
    return send("PUT", path, body, expected);
  }

  /** GET of any path; returns the answer when its status is one expected. */
  Http11Connection.Answer get(String path, int... expected) throws IOException {
    return send("GET", path, null, expected);
  }

  /** DELETE of any path; returns the answer when its status is one expected. */
  Http11Connection.Answer delete(String path, int... expected) throws IOException {
    return send("DELETE", path, null, expected);
  }

  private static String queuePath(QueueName queue) {
    return "/v1/queues/" + queue.namespace() + "/" + queue.name();
  }

  private static String jobsPath(QueueName queue) {
    return queuePath(queue) + "/jobs";
  }

  private Http11Connection.Answer send(String path, String body, int... expected)
      throws IOException {
    return send("POST", path, body, expected);
  }

  private Http11Connection.Answer send(String method, String path, String body, int... expected)
      throws IOException {
    Http11Connection connection = idle.pollFirst();
    // A connection idle for long may have been closed by the server's idle timeout (Jetty's
    // default is 30 s; a slow scenario phase leaves most of the pool unused that long): drop it
    // rather than have a request fail on it.
    while (connection != null
        && System.nanoTime() - connection.lastUsedNanos() > MAX_IDLE.toNanos()) {
      connection.close();
      connection = idle.pollFirst();
    }
    if (connection == null) {
      connection =
          new Http11Connection(base.getHost(), base.getPort(), (int) REQUEST_TIMEOUT.toMillis());
    }
    Http11Connection.Answer answer;
    try {
      answer = connection.send(method, path, authorization, body);
    } catch (IOException e) {
      connection.close();
      throw e;
    }
    if (connection.isOpen()) {
      idle.offerFirst(connection);
    } else {
      connection.close();
    }
    for (int status : expected) {
      if (answer.status() == status) {
        return answer;
      }
    }
    throw new IOException(
        method + " " + path + " answered " + answer.status() + ": " + answer.body());
  }

  @Override
  public void close() {
    Http11Connection connection;
    while ((connection = idle.pollFirst()) != null) {
      connection.close();
    }
  }
}
