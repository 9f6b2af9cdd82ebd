package io.lineup.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lineup.core.model.QueueName;
import java.io.IOException;

/**
 * A dispatch endpoint of the bench's namespace on a started server, as the adaptive and deadline
 * figures set it up, read it and take it down.
 */
final class BenchEndpoint {
  /** Namespace of the endpoints the bench makes. */
  static final String NAMESPACE = "bench";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpApi api;
  private final String name;

  BenchEndpoint(HttpApi api, String name) {
    this.api = api;
    this.name = name;
  }

  /** {@code /v1/endpoints/bench/{name}}. */
  String path() {
    return "/v1/endpoints/" + NAMESPACE + "/" + name;
  }

  /** The engine queue that holds the endpoint's tasks. */
  QueueName queue() {
    return QueueName.of(NAMESPACE, "dispatch." + name);
  }

  /**
   * PUTs the endpoint's settings (a JSON object's fields without the braces).
   *
   * @return the answer: 2xx with the endpoint, or a 4xx saying what the server refused
   * @throws IOException when the request fails or the answer is neither
   */
  Http11Connection.Answer put(String fields) throws IOException {
    return api.put(path(), "{" + fields + "}", 200, 201, 400, 422);
  }

  /** PUTs the settings and expects them taken. */
  JsonNode putTaken(String fields) throws IOException {
    Http11Connection.Answer answer = put(fields);
    if (answer.status() / 100 != 2) {
      throw new IOException(
          "PUT " + path() + " answered " + answer.status() + ": " + answer.body());
    }
    return JSON.readTree(answer.body());
  }

  /** The endpoint as {@code GET} shows it. */
  JsonNode get() throws IOException {
    return JSON.readTree(api.get(path(), 200).body());
  }

  /** Deletes the endpoint and the tasks left in its queue. */
  void delete(BenchContext context) throws IOException {
    api.delete(path(), 204, 404);
    context.redis().dropQueue(queue());
  }
}
