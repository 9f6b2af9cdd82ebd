package io.lineup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.model.InvalidArgumentException;
import io.lineup.dispatch.EndpointKey;
import io.lineup.rooms.RoomKey;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The client refuses exactly the names the server refuses, so a bad name fails in the caller's
 * code, before any request, and a good one is never refused by the client alone.
 */
class NamesAgreeWithTheServerTest {
  private static final List<String> PARTS =
      List.of(
          "shop",
          "close-unpaid",
          "a.b_c-1",
          ".hidden",
          "x",
          "",
          ".",
          "..",
          "...",
          "a b",
          "a:b",
          "a~b",
          "é",
          "a".repeat(55),
          "a".repeat(56),
          "a".repeat(59),
          "a".repeat(60),
          "a".repeat(64),
          "a".repeat(65));

  @Test
  void aQueueNameIsRefusedByTheClientExactlyWhenTheServerRefusesIt() {
    for (String part : PARTS) {
      boolean server = accepts(p -> io.lineup.core.model.QueueName.of("shop", p), part);
      boolean client = acceptsHere(p -> QueueName.of("shop", p), part);
      assertThat(client).as("queue name '%s'", part).isEqualTo(server);
      boolean serverNs = accepts(p -> io.lineup.core.model.QueueName.of(p, "q"), part);
      boolean clientNs = acceptsHere(p -> QueueName.of(p, "q"), part);
      assertThat(clientNs).as("namespace '%s'", part).isEqualTo(serverNs);
    }
  }

  @Test
  void anEndpointNameIsRefusedByTheClientExactlyWhenTheServerRefusesIt() {
    for (String part : PARTS) {
      assertThat(acceptsHere(p -> EndpointName.of("shop", p), part))
          .as("endpoint name '%s'", part)
          .isEqualTo(accepts(p -> new EndpointKey("shop", p), part));
      assertThat(acceptsHere(p -> EndpointName.of(p, "images"), part))
          .as("endpoint namespace '%s'", part)
          .isEqualTo(accepts(p -> new EndpointKey(p, "images"), part));
    }
  }

  @Test
  void aRoomNameIsRefusedByTheClientExactlyWhenTheServerRefusesIt() {
    for (String part : PARTS) {
      assertThat(acceptsHere(p -> RoomName.of("shop", p), part))
          .as("room name '%s'", part)
          .isEqualTo(accepts(p -> new RoomKey("shop", p), part));
      assertThat(acceptsHere(p -> RoomName.of(p, "checkout"), part))
          .as("room namespace '%s'", part)
          .isEqualTo(accepts(p -> new RoomKey(p, "checkout"), part));
    }
  }

  @Test
  void aQueueNamedDotOrDotDotIsRefusedInTheCallersCodeWithAMessage() {
    assertThatThrownBy(() -> QueueName.of("shop", ".."))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the queue's name must not be only dots");
    assertThatThrownBy(() -> QueueName.parse("./orders"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the queue's namespace must not be only dots");
    assertThatThrownBy(() -> QueueName.of("shop", "a b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the queue's name must be 1-64 characters of A-Z a-z 0-9 _ . -; got 'a b'");
  }

  private static boolean accepts(Consumer<String> server, String part) {
    try {
      server.accept(part);
      return true;
    } catch (InvalidArgumentException e) {
      return false;
    }
  }

  private static boolean acceptsHere(Consumer<String> client, String part) {
    try {
      client.accept(part);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
