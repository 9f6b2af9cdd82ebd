package io.lineup.server;

import static io.lineup.server.RoomFixtures.joinId;
import static io.lineup.server.RoomFixtures.name;
import static io.lineup.server.RoomFixtures.poll;
import static io.lineup.server.RoomFixtures.room;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.server.http.Json;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A ticket's Server-Sent Events. */
class RoomEventsTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "sse";

  /** One event as received, with the local time it arrived. */
  record Received(JsonNode view, long atMs) {}

  @Test
  void aTicketsStreamAnnouncesItsPositionThenItsAdmissionAndEnds() throws Exception {
    Api api = server.admin();
    String room = room(api, NS, name("sse"), "\"max_active\": 1");
    String first = joinId(api, room);
    assertThat(poll(api, room, first).path("status").asText()).isEqualTo("admitted");
    String middle = joinId(api, room);
    String ticket = joinId(api, room);
    List<Received> events = new CopyOnWriteArrayList<>();
    HttpResponse<InputStream> response = open(room + "/tickets/" + ticket + "/events");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type").orElse(""))
        .startsWith("text/event-stream");
    Thread reader = Thread.ofVirtual().start(() -> read(response.body(), events));

    // Waited for by what the events say, not by their count: a change of the ETA alone is an event
    // too, and may come between those the test makes.
    await().atMost(Duration.ofSeconds(30)).until(() -> !events.isEmpty());
    assertThat(events.get(0).view().path("position").asLong()).isEqualTo(1);
    api.delete(room + "/tickets/" + middle);
    await().atMost(Duration.ofSeconds(30)).until(() -> last(events).path("position").asLong() == 0);
    assertThat(last(events).path("status").asText()).isEqualTo("waiting");

    api.delete(room + "/tickets/" + first);

    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() ->
            assertThat(last(events).path("status").asText())
                .as("the status of the newest of the events %s", events)
                .isNotEqualTo("waiting"));
    Received announced = events.get(events.size() - 1);
    JsonNode admitted = announced.view();
    assertThat(admitted.path("status").asText()).isEqualTo("admitted");
    assertThat(admitted.path("pass").asText()).contains(".");
    // How soon it came is printed, not asserted: on a busy machine the bytes arrive when the
    // scheduler lets them (issue 49). What the stream decided is asserted: the admission is its
    // last event, after every waiting one, and the stream ends there.
    long lateMs = announced.atMs() - admitted.path("admitted_at").asLong();
    System.out.printf(
        "SSE announced the admission %d ms after it, in event %d of the stream%n",
        lateMs, events.size());
    assertThat(events.subList(0, events.size() - 1))
        .as("every event before the admission")
        .allSatisfy(event -> assertThat(event.view().path("status").asText()).isEqualTo("waiting"));
    reader.join(Duration.ofSeconds(30));
    assertThat(reader.isAlive()).as("the stream ends after the admission").isFalse();
  }

  @Test
  void aStreamOfAnUnknownOrMalformedTicketIsA4xxBeforeTheStreamStarts() throws Exception {
    Api api = server.admin();
    String room = room(api, NS, name("bad"), "\"max_active\": 1");
    assertThat(api.get(room + "/tickets/t" + "Q".repeat(22) + "/events").status()).isEqualTo(404);
    assertThat(api.get(room + "/tickets/zz/events").status()).isEqualTo(400);
  }

  /** The view of the newest event received. */
  static JsonNode last(List<Received> events) {
    return events.get(events.size() - 1).view();
  }

  static HttpResponse<InputStream> open(String path) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .header("Authorization", "Bearer " + LineupServerExtension.ADMIN_TOKEN)
            .header("Accept", "text/event-stream")
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofInputStream());
  }

  static void read(InputStream in, List<Received> events) {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.startsWith("data: ")) {
          long at = System.currentTimeMillis();
          events.add(new Received(Json.MAPPER.readTree(line.substring(6)), at));
        }
      }
    } catch (Exception e) {
      // The stream ended.
    }
  }
}
