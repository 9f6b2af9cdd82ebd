package io.lineup.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A stand-in for a fragile upstream API on 127.0.0.1: it answers {@code POST /api/quote} with a
 * price for the item in the body, and counts what it received: the time each request arrived and
 * each {@code Idempotency-Key}, so a caller can see the busiest second and that nothing came twice.
 */
public final class FakeUpstream implements AutoCloseable {
  private final HttpServer server;
  private final List<Long> arrivals = new CopyOnWriteArrayList<>();
  private final Set<String> keys = ConcurrentHashMap.newKeySet();

  private FakeUpstream(HttpServer server) {
    this.server = server;
  }

  /** Starts on a free port of 127.0.0.1. */
  public static FakeUpstream start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    FakeUpstream upstream = new FakeUpstream(server);
    server.createContext("/api/quote", upstream::quote);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.start();
    return upstream;
  }

  private void quote(HttpExchange exchange) throws IOException {
    arrivals.add(System.nanoTime());
    String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
    if (key != null) {
      keys.add(key);
    }
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String item = body.replaceAll("[^0-9]", "");
    byte[] answer =
        ("{\"item\":" + item + ",\"price_cents\":" + (100 + item.length() * 7) + "}")
            .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, answer.length);
    exchange.getResponseBody().write(answer);
    exchange.close();
  }

  /** {@code http://127.0.0.1:PORT}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Requests received. */
  public int requests() {
    return arrivals.size();
  }

  /** Distinct {@code Idempotency-Key}s received: one per task when nothing came twice. */
  public int distinctKeys() {
    return keys.size();
  }

  /** The most requests that arrived within any one second. */
  public int busiestSecond() {
    List<Long> sorted = new ArrayList<>(arrivals);
    Collections.sort(sorted);
    int most = 0;
    int from = 0;
    for (int to = 0; to < sorted.size(); to++) {
      while (sorted.get(to) - sorted.get(from) >= 1_000_000_000L) {
        from++;
      }
      most = Math.max(most, to - from + 1);
    }
    return most;
  }

  /** Seconds from the first request to the last. */
  public double spanSeconds() {
    if (arrivals.size() < 2) {
      return 0;
    }
    List<Long> sorted = new ArrayList<>(arrivals);
    Collections.sort(sorted);
    return (sorted.get(sorted.size() - 1) - sorted.get(0)) / 1e9;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
