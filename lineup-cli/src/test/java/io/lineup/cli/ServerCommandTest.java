package io.lineup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.client.LineupClient;
import io.lineup.client.NewJob;
import io.lineup.client.QueueName;
import io.lineup.testing.RedisServerExtension;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code lineup server} runs a working server until it is told to stop. */
class ServerCommandTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  private static final Pattern LISTENING =
      Pattern.compile("Lineup listening on (http://127\\.0\\.0\\.1:\\d+)");

  @Test
  void lineupServerServesTheApiAndStopsGracefullyOnSigterm() throws Exception {
    Path data = Files.createTempDirectory("lineup-cli-server-");
    Process process =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    LineupCli.class.getName(),
                    "server",
                    "--port=0",
                    "--host=127.0.0.1",
                    "--redis-url=" + redis.uri(),
                    "--admin-token=cli-server-admin-token-0123",
                    "--data-dir=" + data))
            .redirectErrorStream(true)
            .start();
    try {
      CompletableFuture<String> url = new CompletableFuture<>();
      Thread.ofVirtual()
          .start(() -> {
            try (BufferedReader lines =
                new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
              String line;
              while ((line = lines.readLine()) != null) {
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                  url.complete(m.group(1));
                }
              }
              url.completeExceptionally(new AssertionError("the server ended before listening"));
            } catch (Exception e) {
              url.completeExceptionally(e);
            }
          });
      String base = url.get(60, TimeUnit.SECONDS);
      try (LineupClient client = LineupClient.connect(base, "cli-server-admin-token-0123")) {
        QueueName queue = QueueName.of("cli", "server-command");
        assertThat(client.publish(queue, NewJob.ofJson("1")).created()).isTrue();
        assertThat(client.stats(queue).counts().ready()).isEqualTo(1);
      }
      process.destroy(); // SIGTERM
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("stopped after SIGTERM").isTrue();
    } finally {
      process.destroyForcibly();
    }
  }
}
