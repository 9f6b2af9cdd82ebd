package io.lineup.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.lineup.client.TestServer;
import io.lineup.testing.RedisServerExtension;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The OpenAPI document the server serves passes Spectral's {@code spectral:oas} ruleset with no
 * error and no warning, and is the checked-in document the build generates a client from.
 *
 * <p>Spectral runs through {@code npx} (Node.js). Without it the lint test fails when {@code
 * CI=true} or {@code LINEUP_REQUIRE_NODE=1}, and is skipped with a message otherwise.
 */
class SpectralLintTest {
  /** The Spectral command line version, pinned so a new rule cannot break an old build. */
  static final String SPECTRAL = "@stoplight/spectral-cli@6.15.0";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static TestServer server;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static byte[] served() throws IOException, InterruptedException {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<byte[]> response =
          http.send(
              HttpRequest.newBuilder(URI.create(server.url() + "/openapi.json")).build(),
              HttpResponse.BodyHandlers.ofByteArray());
      assertThat(response.statusCode()).isEqualTo(200);
      return response.body();
    }
  }

  @Test
  void theServedDocumentIsTheCheckedInOneTheBuildGeneratesAClientFrom() throws Exception {
    Path checkedIn = Paths.get(System.getProperty("lineup.openapi"));
    assertThat(served()).isEqualTo(Files.readAllBytes(checkedIn));
  }

  @Test
  void theServedDocumentHasNoSpectralOasErrorOrWarning() throws Exception {
    String npx = npx();
    Path target = Paths.get("target");
    Files.createDirectories(target);
    Path document = target.resolve("served-openapi.json");
    Files.write(document, served());
    Path ruleset = Paths.get("src/test/resources/spectral.yaml");
    Path log = target.resolve("spectral.log");
    Process process =
        new ProcessBuilder(
                List.of(
                    npx,
                    "--yes",
                    SPECTRAL,
                    "lint",
                    "--ruleset",
                    ruleset.toString(),
                    "--fail-severity",
                    "warn",
                    document.toString()))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    process.getOutputStream().close();
    if (!process.waitFor(5, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail("Spectral did not finish within 5 minutes; its output so far:%n%s", read(log));
    }
    String output = read(log);
    assertThat(process.exitValue())
        .as("spectral lint (spectral:oas, fail on warnings) said:%n%s", output)
        .isZero();
    assertThat(output).contains("No results with a severity of 'warn' or higher found");
  }

  private static String read(Path log) throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  /** The npx command, or a failure (CI) or skip (elsewhere) saying it is missing. */
  private static String npx() {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(java.io.File.pathSeparator)) {
      Path candidate = Paths.get(dir, "npx");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    String message =
        "npx (Node.js) is not on the PATH, so the OpenAPI document was not linted with Spectral."
            + " Install Node.js 18 or newer to run this check.";
    boolean required =
        "true".equalsIgnoreCase(System.getenv("CI"))
            || "1".equals(System.getenv("LINEUP_REQUIRE_NODE"));
    if (required) {
      fail(message + " It is required here (CI=true or LINEUP_REQUIRE_NODE=1).");
    }
    System.err.println("SKIPPED: " + message);
    Assumptions.abort(message);
    return null;
  }
}
