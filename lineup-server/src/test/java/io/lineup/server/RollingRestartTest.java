package io.lineup.server;

import static io.lineup.server.DispatchFixtures.endpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two servers on one Redis, restarted one after the other the way a deployment does it: each is
 * shut down gracefully (what SIGTERM from a supervisor runs) and started again on its port, while
 * producers, workers, dispatched tasks and a waiting room go on through both. Nothing is lost and
 * nothing is delivered twice.
 */
class RollingRestartTest {
  @RegisterExtension static LineupServerExtension servers = LineupServerExtension.onItsOwnRedis();

  static final int JOBS = 6_000;
  static final int TASKS = 120;
  static final int TICKETS = 12;
  static final int ACTIVE = 4;

  @Test
  void restartingEachServerInTurnLosesNoJobTaskOrTicketAndDeliversNothingTwice() throws Exception {
    int[] ports = {freePort(), freePort()};
    List<LineupServer> running = new CopyOnWriteArrayList<>();
    for (int port : ports) {
      running.add(servers.startAnother(b -> b.port(port)));
    }
    List<Api> apis = List.of(Api.adminOf(running.get(0)), Api.adminOf(running.get(1)));
    List<String> queues = IntStream.range(0, 4).mapToObj(i -> "q" + i).toList();
    JobLedger ledger = new JobLedger();

    try (TestTarget target = TestTarget.start();
        HttpLoad load = new HttpLoad(apis, "rolling", queues, ledger)) {
      target.latency(20);
      String ep =
          endpoint(
              apis.get(0),
              "rolling",
              DispatchFixtures.name("ep"),
              target.url(),
              "\"concurrency\": 4, \"attempt_timeout_ms\": 5000");
      String room =
          RoomFixtures.room(
              apis.get(0),
              "rolling",
              RoomFixtures.name("room"),
              "\"max_active\": " + ACTIVE + ", \"pass_ttl_ms\": 600000, \"grace_ms\": 3600000");
      List<String> tickets = new ArrayList<>();
      for (int i = 0; i < TICKETS; i++) {
        tickets.add(RoomFixtures.joinId(apis.get(i % 2), room));
      }
      await().until(() -> admitted(apis.get(1), room, tickets).size() == ACTIVE);
      Map<String, String> passes = passesOf(apis.get(1), room, tickets);
      Map<String, String> positions = positionsOf(apis.get(0), room, tickets);

      load.produce(4, JOBS, 50, 0).work(4, 50);
      TaskSubmitter tasks = new TaskSubmitter(apis, ep);
      Thread submitter = Thread.ofVirtual().start(() -> tasks.submit(TASKS));

      for (int i = 0; i < 2; i++) {
        int next = i;
        await()
            .atMost(Duration.ofMinutes(1))
            .until(() -> load.published() >= (next + 1) * JOBS / 3);
        running.get(i).close();
        running.set(i, servers.startAnother(b -> b.port(ports[next])));
      }

      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> ledger.ackedCount() >= JOBS);
      submitter.join(Duration.ofMinutes(1));
      assertThat(tasks.ids()).hasSize(TASKS);
      for (String id : tasks.ids()) {
        JsonNode task = DispatchFixtures.awaitEnd(apis.get(0), ep, id);
        assertThat(task.path("status").asText()).as(task.toString()).isEqualTo("succeeded");
        assertThat(task.path("attempts")).as(task.toString()).hasSize(1);
      }
      System.out.printf(
          "Rolling restart of two servers: %s; %d tasks, %d requests at the target; %d refused"
              + " or dropped calls%n",
          ledger.summary(), TASKS, target.count(), load.unavailableAnswers());

      assertThat(ledger.confirmedCount()).isEqualTo(JOBS);
      assertThat(ledger.ackedCount()).isEqualTo(JOBS);
      assertThat(ledger.leasedMoreThanOnce()).as("no job was delivered twice").isZero();
      assertThat(ledger.ackedMoreThanOnce()).as("no job was acked twice").isZero();
      assertThat(target.count()).as("each task was sent once").isEqualTo(TASKS);

      // The room went through both restarts: its passes still verify, its line kept its order.
      for (Map.Entry<String, String> pass : passes.entrySet()) {
        Reply verified =
            apis.get(1)
                .post(
                    "/v1/passes/verify",
                    "{\"room\": \"rolling/"
                        + room.substring(room.lastIndexOf('/') + 1)
                        + "\", \"pass\": \""
                        + pass.getValue()
                        + "\"}");
        assertThat(verified.status()).as(verified.toString()).isEqualTo(200);
        assertThat(verified.json().path("ticket").asText()).isEqualTo(pass.getKey());
      }
      assertThat(positionsOf(apis.get(0), room, tickets)).isEqualTo(positions);
      for (String admittedTicket : passes.keySet()) {
        assertThat(apis.get(0).delete(room + "/tickets/" + admittedTicket).status()).isEqualTo(200);
      }
      List<String> nextInLine = tickets.subList(ACTIVE, 2 * ACTIVE);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> admitted(apis.get(1), room, tickets).equals(nextInLine));
    } finally {
      for (LineupServer server : running) {
        server.close();
      }
    }
  }

  /** The tickets admitted now, in join order. */
  private static List<String> admitted(Api api, String room, List<String> tickets) {
    return tickets.stream()
        .filter(t -> RoomFixtures.poll(api, room, t).path("status").asText().equals("admitted"))
        .toList();
  }

  /** The passes of the tickets admitted now. */
  private static Map<String, String> passesOf(Api api, String room, List<String> tickets) {
    return fieldOf(api, room, tickets, "admitted", "pass");
  }

  /** The positions of the tickets waiting now. */
  private static Map<String, String> positionsOf(Api api, String room, List<String> tickets) {
    return fieldOf(api, room, tickets, "waiting", "position");
  }

  /** Per ticket in this status now, a field of its view, as text. */
  private static Map<String, String> fieldOf(
      Api api, String room, List<String> tickets, String status, String field) {
    Map<String, String> values = new ConcurrentHashMap<>();
    for (String ticket : tickets) {
      JsonNode view = RoomFixtures.poll(api, room, ticket);
      if (view.path("status").asText().equals(status)) {
        values.put(ticket, view.path(field).asText());
      }
    }
    return values;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /**
   * Submits tasks the way a careful caller does: each with an idempotency key of its own, so that a
   * submit retried on the other server after a refused or dropped call makes no second task.
   */
  private static final class TaskSubmitter {
    private final List<Api> apis;
    private final String endpoint;
    private final List<String> ids = new CopyOnWriteArrayList<>();

    TaskSubmitter(List<Api> apis, String endpoint) {
      this.apis = apis;
      this.endpoint = endpoint;
    }

    void submit(int count) {
      for (int i = 0; i < count; i++) {
        String body = "{\"path\": \"/work\", \"idempotency_key\": \"task-" + i + "\"}";
        for (int attempt = 0; ; attempt++) {
          Reply reply = tryCall(apis.get((i + attempt) % 2), body);
          if (reply != null && (reply.status() == 202 || reply.status() == 200)) {
            ids.add(reply.field("id"));
            break;
          }
          assertThat(reply == null || reply.status() == 503)
              .as("a submit is refused only while a server restarts: %s", reply)
              .isTrue();
        }
        pace();
      }
    }

    private Reply tryCall(Api api, String body) {
      try {
        return api.send("POST", endpoint + "/tasks", body, Duration.ofSeconds(10));
      } catch (UncheckedIOException | IllegalStateException refused) {
        return null;
      }
    }

    private static void pace() {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    List<String> ids() {
      return List.copyOf(ids);
    }
  }
}
