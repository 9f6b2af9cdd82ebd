package io.lineup.server;

import static io.lineup.server.DispatchFixtures.awaitEnd;
import static io.lineup.server.DispatchFixtures.endpoint;
import static io.lineup.server.DispatchFixtures.name;
import static io.lineup.server.DispatchFixtures.submit;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What is sent is checked where it is sent: a task record that reached its queue without the submit
 * checks (written straight into the engine) is ended as failed with the reason and never reaches
 * the target; paths that a server could read as leaving the base are refused at submit.
 */
class DispatchSendCheckTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "sendcheck";
  static final ObjectMapper JSON = new ObjectMapper();
  static Api api;
  static Lineup engine;

  @BeforeAll
  static void start() {
    api = server.admin();
    engine = Lineup.connect(LineupOptions.builder(server.redis().uri()).build());
  }

  @AfterAll
  static void stop() {
    engine.close();
  }

  /** Writes a task record as the dispatcher reads it straight into the endpoint's queue. */
  static String writeRecord(String endpoint, ObjectNode head, String body) throws Exception {
    byte[] line = JSON.writeValueAsBytes(head);
    byte[] tail = body.getBytes(StandardCharsets.ISO_8859_1);
    byte[] payload = new byte[line.length + 1 + tail.length];
    System.arraycopy(line, 0, payload, 0, line.length);
    payload[line.length] = '\n';
    System.arraycopy(tail, 0, payload, line.length + 1, tail.length);
    return engine.publish(QueueName.of(NS, "dispatch." + endpoint), NewJob.of(payload)).id();
  }

  static ObjectNode head(String method, String path, Map<String, String> headers) {
    ObjectNode head = JSON.createObjectNode();
    head.put("method", method);
    head.put("path", path);
    ObjectNode h = head.putObject("headers");
    headers.forEach(h::put);
    head.put("content_type", "text/plain");
    head.putNull("callback_url");
    head.put("delivery_key", "6f1c2d3e-1111-4222-8333-444455556666");
    return head;
  }

  record Forged(String what, ObjectNode head, String body, String reason) {}

  @Test
  void aHandWrittenRecordThatWouldSmuggleARequestIsEndedAsFailedAndNeverSent() throws Exception {
    TestTarget target = TestTarget.start();
    try (target) {
      String name = name("forged");
      String ep = endpoint(api, NS, name, target.url() + "/api", "\"methods\": [\"POST\"]");
      String smuggled = "0\r\n\r\nGET /admin HTTP/1.1\r\nHost: target\r\n\r\n";
      List<Forged> forged =
          List.of(
              new Forged(
                  "a header value holding CR LF and a header of its own",
                  head("POST", "/x", Map.of("X-Note", "a\r\nX-Injected: yes")),
                  "",
                  "header X-Note must not hold control"),
              new Forged(
                  "a second Host",
                  head("POST", "/x", Map.of("Host", "internal.example")),
                  "",
                  "header Host is a framing or hop-by-hop header"),
              new Forged(
                  "Transfer-Encoding and Content-Length with a request after the body",
                  head("POST", "/x", Map.of("Transfer-Encoding", "chunked", "Content-Length", "4")),
                  smuggled,
                  "is a framing or hop-by-hop header"),
              new Forged(
                  "a NUL in a header name",
                  head("POST", "/x", Map.of("X-A\u0000B", "1")),
                  "",
                  "a header name is 1 to 64 token characters"),
              new Forged(
                  "a Proxy- header",
                  head("POST", "/x", Map.of("Proxy-Authorization", "Basic eA==")),
                  "",
                  "is a framing or hop-by-hop header"),
              new Forged(
                  "a method the endpoint does not allow",
                  head("DELETE", "/x", Map.of()),
                  "",
                  "method DELETE is not among the endpoint's allowed methods"),
              new Forged(
                  "a method that is no token",
                  head("POST /y HTTP/1.1\r\nX:", "/x", Map.of()),
                  "",
                  "is not among the endpoint's allowed methods"),
              new Forged(
                  "a path out of the base by ..;",
                  head("POST", "/..;/admin", Map.of()),
                  "",
                  "path must not hold dot segments"),
              new Forged(
                  "a path with CR LF",
                  head("POST", "/x HTTP/1.1\r\nX-Injected: yes\r\n\r\n", Map.of()),
                  "",
                  "path must be printable ASCII"));
      for (Forged f : forged) {
        String id = writeRecord(name, f.head(), f.body());
        JsonNode task = awaitEnd(api, ep, id);
        assertThat(task.path("status").asText()).as(f.what() + ": " + task).isEqualTo("failed");
        assertThat(task.path("error").asText())
            .as(f.what())
            .startsWith("not sent: ")
            .contains(f.reason());
        assertThat(task.path("attempts")).as(f.what()).isEmpty();
      }
      // A good record written the same way is sent: the target was there all along.
      String good = writeRecord(name, head("POST", "/x", Map.of("X-Note", "fine")), "hi");
      assertThat(awaitEnd(api, ep, good).path("status").asText()).isEqualTo("succeeded");
      assertThat(target.seen()).hasSize(1);
      assertThat(target.seen().get(0).header("X-Injected")).isNull();
      assertThat(target.seen().get(0).path()).isEqualTo("/api/x");
    }
  }

  @Test
  void aRecordThatIsNotSentStillCallsBackWithTheReason() throws Exception {
    String ns = "sendcheckback";
    TestTarget target = TestTarget.start();
    TestTarget receiver = TestTarget.start();
    try (target;
        receiver) {
      Reply settings =
          api.put("/v1/callbacks/" + ns, "{\"allowed_prefixes\": [\"" + receiver.url() + "/\"]}");
      assertThat(settings.status()).as(settings.toString()).isEqualTo(200);
      String name = name("back");
      String ep = endpoint(api, ns, name, target.url(), "");
      ObjectNode head = head("POST", "/x", Map.of("X-Note", "a\r\nX-Injected: yes"));
      head.put("callback_url", receiver.url() + "/done");
      byte[] line = JSON.writeValueAsBytes(head);
      byte[] payload = java.util.Arrays.copyOf(line, line.length + 1);
      payload[line.length] = '\n';
      String id = engine.publish(QueueName.of(ns, "dispatch." + name), NewJob.of(payload)).id();
      assertThat(awaitEnd(api, ep, id).path("status").asText()).isEqualTo("failed");
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(15))
          .until(() -> receiver.count() == 1);
      JsonNode body = JSON.readTree(receiver.seen().get(0).body());
      assertThat(body.path("id").asText()).isEqualTo(id);
      assertThat(body.path("status").asText()).isEqualTo("failed");
      assertThat(body.path("error").asText()).startsWith("not sent: header X-Note");
      assertThat(target.count()).isZero();
    }
  }

  @Test
  void pathsAServerCouldReadAsLeavingTheBaseAreRefusedAtSubmit() {
    TestTarget target = TestTarget.start();
    try (target) {
      String ep = endpoint(api, NS, name("paths"), target.url() + "/api", "");
      for (String path :
          List.of(
              "/..;/x",
              "/a/..;jsessionid=1/x",
              "/.;/x",
              "/a/.;x/b",
              "/%2e%2e/x",
              "/%2E%2E/x",
              "/.%2E/x",
              "/%252e%252e/x",
              "/%25252E/x",
              "/a%2fb",
              "/a%5Cb",
              "/a\\\\b",
              "/a//b",
              "/a/b//")) {
        Reply reply = api.post(ep + "/tasks", "{\"path\": \"" + path + "\"}");
        assertThat(reply.status()).as(path + ": " + reply).isEqualTo(400);
        assertThat(reply.json().path("field").asText()).as(path).isEqualTo("path");
      }
      // A semicolon or a percent sign that is no trick still passes.
      String fine = submit(api, ep, "{\"path\": \"/a;v=1/b%20c?q=..;\"}");
      assertThat(awaitEnd(api, ep, fine).path("status").asText()).isEqualTo("succeeded");
      assertThat(target.seen().get(0).path()).isEqualTo("/api/a;v=1/b%20c?q=..;");
    }
  }

  @Test
  void callbackUrlsWithPathTricksAreRefusedWhenSet() {
    String ns = "sendcheckcb";
    Reply put =
        api.put("/v1/callbacks/" + ns, "{\"allowed_prefixes\": [\"http://127.0.0.1:1/hooks/\"]}");
    assertThat(put.status()).as(put.toString()).isEqualTo(200);
    TestTarget target = TestTarget.start();
    try (target) {
      String ep = endpoint(api, ns, name("cbpaths"), target.url(), "");
      for (String url :
          List.of(
              "http://127.0.0.1:1/hooks/..;/admin",
              "http://127.0.0.1:1/hooks/.;/admin",
              "http://127.0.0.1:1/hooks/%2e%2e/admin",
              "http://127.0.0.1:1/hooks/%252E%252E/admin",
              "http://127.0.0.1:1/hooks//admin",
              "http://127.0.0.1:1/hooks/a/../../admin")) {
        Reply reply = api.post(ep + "/tasks", "{\"callback_url\": \"" + url + "\"}");
        assertThat(reply.status()).as(url + ": " + reply).isEqualTo(400);
        assertThat(reply.json().path("field").asText()).as(url).isEqualTo("callback_url");
      }
      assertThat(target.count()).isZero();
    }
  }
}
