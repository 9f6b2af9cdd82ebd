package io.lineup.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.lineup.client.LineupClient;
import io.lineup.client.RoomName;
import io.lineup.pass.PassRejectedException;
import io.lineup.pass.PassVerifier;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A gateway that checks waiting-room passes: a JDK HTTP server in front of the checkout that lets a
 * request through only when its {@code X-Lineup-Pass} header holds a valid pass of the room {@code
 * shop/checkout}, checked offline with {@link PassVerifier} and the room's public keys; anything
 * else is answered 401, sending the user back to the waiting room. Lineup is not called per
 * request.
 *
 * <p>Run: {@code LINEUP_URL=http://127.0.0.1:7700 LINEUP_TOKEN=... java ... PassGateway [port]}
 * (default 8080); the room must exist.
 */
public final class PassGateway implements AutoCloseable {
  /** The room whose passes the gateway honours. */
  public static final RoomName ROOM = RoomName.of("shop", "checkout");

  /** The request header that carries the pass. */
  public static final String PASS_HEADER = "X-Lineup-Pass";

  private final HttpServer gateway;

  private PassGateway(HttpServer gateway) {
    this.gateway = gateway;
  }

  /**
   * Starts the gateway in front of {@code upstream}.
   *
   * @param jwks the room's public keys, as {@code GET /v1/rooms/shop/checkout/jwks.json} answers
   * @param port the port on 127.0.0.1, or 0 for a free one
   */
  public static PassGateway start(String jwks, int port, HttpHandler upstream) throws IOException {
    // The ten lines of docs/waiting-room.md, "A gateway in ten lines":
    PassVerifier verifier = PassVerifier.fromJwks(jwks);
    HttpServer gateway = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    gateway.createContext(
        "/checkout",
        exchange -> {
          try {
            verifier.verify(
                String.valueOf(exchange.getRequestHeaders().getFirst("X-Lineup-Pass")),
                "shop/checkout");
            upstream.handle(exchange);
          } catch (PassRejectedException e) {
            exchange.sendResponseHeaders(401, -1);
            exchange.close();
          }
        });
    gateway.start();
    return new PassGateway(gateway);
  }

  /** {@code http://127.0.0.1:PORT}. */
  public String url() {
    return "http://127.0.0.1:" + gateway.getAddress().getPort();
  }

  /** The protected checkout of this example: answers 200 with a short text. */
  public static void checkout(HttpExchange exchange) throws IOException {
    byte[] page = "checkout open".getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(200, page.length);
    exchange.getResponseBody().write(page);
    exchange.close();
  }

  @Override
  public void close() {
    gateway.stop(0);
  }

  /** Reads the room's keys from Lineup and serves the gateway until stopped. */
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
    String jwks;
    try (LineupClient client =
        LineupClient.connect(
            System.getenv().getOrDefault("LINEUP_URL", "http://127.0.0.1:7700"),
            System.getenv("LINEUP_TOKEN"))) {
      jwks = client.rooms().jwks(ROOM);
    }
    PassGateway gateway = start(jwks, port, PassGateway::checkout);
    System.out.println(
        "gateway on "
            + gateway.url()
            + "/checkout: send the pass in the "
            + PASS_HEADER
            + " header");
    Thread.currentThread().join();
  }
}
