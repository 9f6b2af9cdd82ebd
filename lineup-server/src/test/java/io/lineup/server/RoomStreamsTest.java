package io.lineup.server;

import static io.lineup.server.RoomFixtures.joinId;
import static io.lineup.server.RoomFixtures.name;
import static io.lineup.server.RoomFixtures.poll;
import static io.lineup.server.RoomFixtures.room;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Ticket streams and long polls on the room's one watcher: a client that hangs up frees its stream
 * at once (not at the next keep-alive, 15 s later), and a ticket's long poll answers on a change or
 * when its wait ends.
 */
class RoomStreamsTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "streams";
  static final Duration BOUND = Duration.ofSeconds(30);

  /** A room of one slot, taken by a first ticket; returns the room's path and its two tickets. */
  static String[] aRoomWithOneWaiting(Api api) {
    String room = room(api, NS, name("s"), "\"max_active\": 1, \"grace_ms\": 600000");
    String first = joinId(api, room);
    await()
        .atMost(BOUND)
        .until(() -> poll(api, room, first).path("status").asText().equals("admitted"));
    return new String[] {room, first, joinId(api, room)};
  }

  static double roomStreams(Api api) {
    return ObservabilityTest.unlabelled(api.as(null).get("/metrics").text(), "lineup_room_streams");
  }

  @Test
  void aStreamWhoseClientHangsUpIsFreedBeforeItsNextKeepAlive() throws Exception {
    Api api = server.admin();
    String[] r = aRoomWithOneWaiting(api);
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET "
                  + r[0]
                  + "/tickets/"
                  + r[2]
                  + "/events HTTP/1.1\r\n"
                  + "Host: 127.0.0.1\r\n"
                  + "Authorization: Bearer "
                  + LineupServerExtension.ADMIN_TOKEN
                  + "\r\n"
                  + "Accept: text/event-stream\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      BufferedReader in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
      String line;
      do {
        line = in.readLine();
      } while (line != null && !line.startsWith("data: "));
      assertThat(line).as("the stream's first event").contains("\"waiting\"");
      await().atMost(BOUND).until(() -> roomStreams(api) == 1.0);
    }
    // A bound below the 15 s keep-alive, whose write was the only way a hang-up was noticed.
    await().atMost(Duration.ofSeconds(10)).until(() -> roomStreams(api) == 0.0);
  }

  @Test
  void aLongPollAnswersTheTicketUnchangedWhenItsWaitEnds() {
    Api api = server.admin();
    String[] r = aRoomWithOneWaiting(api);
    Reply reply = api.get(r[0] + "/tickets/" + r[2] + "?wait_ms=300");
    assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    assertThat(reply.json().path("status").asText()).isEqualTo("waiting");
    assertThat(reply.json().path("position").asLong()).isZero();
  }

  @Test
  void aLongPollAnswersTheAdmissionAsSoonAsTheSlotIsFreed() {
    Api api = server.admin();
    String[] r = aRoomWithOneWaiting(api);
    CompletableFuture<Reply> answer =
        CompletableFuture.supplyAsync(() ->
            api.send(
                "GET", r[0] + "/tickets/" + r[2] + "?wait_ms=30000", null, Duration.ofSeconds(60)));
    await().atMost(BOUND).until(() -> roomStreams(api) == 1.0);

    api.delete(r[0] + "/tickets/" + r[1]);

    Reply reply = answer.join();
    assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    JsonNode ticket = reply.json();
    assertThat(ticket.path("status").asText()).isEqualTo("admitted");
    assertThat(ticket.path("pass").asText()).contains(".");
  }

  @Test
  void aLongPollWaitOutsideZeroToThirtySecondsOrNotANumberIsA400() {
    Api api = server.admin();
    String[] r = aRoomWithOneWaiting(api);
    for (String bad : new String[] {"30001", "-1", "soon"}) {
      Reply reply = api.get(r[0] + "/tickets/" + r[2] + "?wait_ms=" + bad);
      assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
      assertThat(reply.text()).contains("wait_ms");
    }
  }
}
