package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.server.api.DashboardAssets;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How the dashboard's files and the API's JSON go over the wire: page files gzip-compressed for a
 * client that accepts it, with an ETag that a revalidation turns into a 304; the icon where
 * browsers look; HEAD answered with GET's headers; every {@code /v1} answer marked nosniff and
 * no-store, errors and the core lane's answers included.
 */
class DashboardFilesTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static Api anyone;
  static Api admin;

  @BeforeAll
  static void connect() {
    admin = server.admin();
    anyone = admin.as(null);
  }

  static String gunzip(byte[] bytes) {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void pageFilesAreCompressedForClientsThatAcceptGzipAndKeptAsTheyAreForOthers() {
    Reply plain = anyone.get("/ui/app.js");
    assertThat(plain.status()).isEqualTo(200);
    assertThat(plain.header("Content-Encoding")).isNull();

    Reply zipped = anyone.withHeader("Accept-Encoding", "gzip, deflate").get("/ui/app.js");
    assertThat(zipped.status()).isEqualTo(200);
    assertThat(zipped.header("Content-Encoding")).isEqualTo("gzip");
    assertThat(zipped.header("Vary")).isEqualTo("Accept-Encoding");
    assertThat(zipped.raw().body().length).isLessThan(plain.raw().body().length);
    assertThat(gunzip(zipped.raw().body())).isEqualTo(plain.text());

    Reply refused = anyone.withHeader("Accept-Encoding", "gzip;q=0, identity").get("/ui/app.js");
    assertThat(refused.header("Content-Encoding")).isNull();
    assertThat(refused.text()).isEqualTo(plain.text());
  }

  @Test
  void aBrowserThatHoldsTheCurrentFileIsAnsweredNotModifiedWithoutABody() {
    for (String file : List.of("/ui", "/ui/style.css", "/ui/vendor/uPlot.esm.js")) {
      Reply first = anyone.get(file);
      String etag = first.header("ETag");
      assertThat(etag).as(file).matches("\"[0-9a-f]{16}\"");
      assertThat(first.header("Cache-Control")).isEqualTo("no-cache");

      Reply again = anyone.withHeader("If-None-Match", etag).get(file);
      assertThat(again.status()).as(file).isEqualTo(304);
      assertThat(again.raw().body()).isEmpty();
      assertThat(again.header("ETag")).isEqualTo(etag);

      Reply stale = anyone.withHeader("If-None-Match", "\"0000000000000000\"").get(file);
      assertThat(stale.status()).as(file).isEqualTo(200);
      assertThat(stale.text()).isEqualTo(first.text());
    }
    // The compressed form has its own tag: a cache never mixes the two.
    Reply zipped = anyone.withHeader("Accept-Encoding", "gzip").get("/ui/app.js");
    assertThat(zipped.header("ETag")).isNotEqualTo(anyone.get("/ui/app.js").header("ETag"));
  }

  @Test
  void theIconIsServedWhereBrowsersLookForIt() {
    Reply icon = anyone.get("/favicon.ico");
    assertThat(icon.status()).isEqualTo(200);
    assertThat(icon.header("Content-Type")).isEqualTo("image/x-icon");
    // An ICO file starts with reserved 0, type 1 (icon).
    assertThat(icon.raw().body()).startsWith(0, 0, 1, 0);
    assertThat(anyone.get("/ui/favicon.ico").raw().body()).isEqualTo(icon.raw().body());
  }

  @Test
  void headOfThePageAnswersTheHeadersOfGetWithoutTheBody() {
    Reply get = anyone.get("/ui");
    Reply head = anyone.send("HEAD", "/ui", null);
    assertThat(head.status()).isEqualTo(200);
    assertThat(head.raw().body()).isEmpty();
    for (String name :
        List.of(
            "Content-Type",
            "Content-Security-Policy",
            "X-Content-Type-Options",
            "Referrer-Policy",
            "ETag",
            "Content-Length")) {
      assertThat(head.header(name)).as(name).isEqualTo(get.header(name)).isNotNull();
    }
    assertThat(head.header("Content-Security-Policy"))
        .isEqualTo(DashboardAssets.CONTENT_SECURITY_POLICY);
    assertThat(anyone.send("HEAD", "/ui/app.js", null).header("Content-Type"))
        .startsWith("text/javascript");
  }

  @Test
  void everyApiAnswerIsMarkedNosniffAndNoStoreErrorsIncluded() {
    String queue = "/v1/queues/files/" + RoomFixtures.name("q");
    List<Reply> answers =
        List.of(
            admin.get("/v1/me"),
            admin.get("/v1/overview"),
            // The publish route is served by the core lane.
            admin.post(queue + "/jobs", "{\"payload\": 1}"),
            admin.post(queue + "/jobs", "{\"payload\": "),
            admin.get(queue + "/jobs/nobody"),
            anyone.get("/v1/me"));
    for (Reply answer : answers) {
      assertThat(answer.header("X-Content-Type-Options"))
          .as(answer.toString())
          .isEqualTo("nosniff");
      assertThat(answer.header("Cache-Control")).as(answer.toString()).isEqualTo("no-store");
    }
    assertThat(answers.stream().map(Reply::status)).containsExactly(200, 200, 201, 400, 404, 401);
  }
}
