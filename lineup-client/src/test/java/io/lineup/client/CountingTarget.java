package io.lineup.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real HTTP target on 127.0.0.1 for dispatch tests: answers every request 200 with {@code
 * {"ok":true,"n":N}} and records each request (method, path, {@code Idempotency-Key}, {@code
 * Lineup-Task-Id}, body, and the webhook headers of callbacks).
 */
final class CountingTarget implements AutoCloseable {
  /** One request the target received. */
  record Received(
      String method,
      String path,
      String idempotencyKey,
      String taskId,
      String body,
      String webhookId) {}

  private final HttpServer server;
  private final List<Received> received = new CopyOnWriteArrayList<>();

  private CountingTarget(HttpServer server) {
    this.server = server;
  }

  static CountingTarget start() {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      CountingTarget target = new CountingTarget(server);
      server.createContext("/", target::handle);
      server.start();
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    received.add(
        new Received(
            exchange.getRequestMethod(),
            exchange.getRequestURI().toString(),
            exchange.getRequestHeaders().getFirst("Idempotency-Key"),
            exchange.getRequestHeaders().getFirst("Lineup-Task-Id"),
            body,
            exchange.getRequestHeaders().getFirst("webhook-id")));
    byte[] answer =
        ("{\"ok\":true,\"n\":" + received.size() + "}").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, answer.length);
    exchange.getResponseBody().write(answer);
    exchange.close();
  }

  /** {@code http://127.0.0.1:PORT}. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  List<Received> received() {
    return List.copyOf(received);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
