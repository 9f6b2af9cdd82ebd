package io.lineup.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class CapacityTargetTest {
  private static HttpRequest request(CapacityTarget target, int serial) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + target.port() + "/work"))
        .header(CapacityTarget.SERIAL_HEADER, Integer.toString(serial))
        .header("Lineup-Task-Id", "~" + serial)
        .POST(HttpRequest.BodyPublishers.ofString("{}"))
        .build();
  }

  @Test
  void beyondItsCapacityARequestWaitsAndBeyondTwiceItIsRefusedWithRetryAfter() throws Exception {
    // Long service times, so the first two requests are still open whatever the machine's load
    // when the third arrives.
    try (CapacityTarget target = new CapacityTarget(1, 3_000);
        HttpClient client = HttpClient.newHttpClient()) {
      CompletableFuture<HttpResponse<Void>> worked =
          client.sendAsync(request(target, 1), HttpResponse.BodyHandlers.discarding());
      await().atMost(Duration.ofSeconds(10)).until(() -> target.open() == 1);
      CompletableFuture<HttpResponse<Void>> waiting =
          client.sendAsync(request(target, 2), HttpResponse.BodyHandlers.discarding());
      await().atMost(Duration.ofSeconds(10)).until(() -> target.open() == 2);

      HttpResponse<Void> refused =
          client.send(request(target, 3), HttpResponse.BodyHandlers.discarding());

      assertThat(refused.statusCode()).isEqualTo(429);
      assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(worked.get().statusCode()).isEqualTo(204);
      assertThat(waiting.get().statusCode()).isEqualTo(204);
      List<CapacityTarget.Request> requests = target.requests();
      assertThat(requests)
          .extracting(CapacityTarget.Request::serial, CapacityTarget.Request::status)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple(1L, 204),
              org.assertj.core.groups.Tuple.tuple(2L, 204),
              org.assertj.core.groups.Tuple.tuple(3L, 429));
      assertThat(requests).extracting(CapacityTarget.Request::taskId).contains("~1", "~2", "~3");
      // The second waited for the first's worker: it started once the first had ended.
      assertThat(served(requests, 2).startNanos())
          .isGreaterThanOrEqualTo(served(requests, 1).endNanos());
    }
  }

  @Test
  void aRaisedCapacityStartsWaitingRequestsAtOnce() throws Exception {
    try (CapacityTarget target = new CapacityTarget(1, 3_000);
        HttpClient client = HttpClient.newHttpClient()) {
      CompletableFuture<HttpResponse<Void>> first =
          client.sendAsync(request(target, 1), HttpResponse.BodyHandlers.discarding());
      await().atMost(Duration.ofSeconds(10)).until(() -> target.open() == 1);
      CompletableFuture<HttpResponse<Void>> second =
          client.sendAsync(request(target, 2), HttpResponse.BodyHandlers.discarding());
      await().atMost(Duration.ofSeconds(10)).until(() -> target.open() == 2);

      target.capacity(2);

      assertThat(first.get().statusCode()).isEqualTo(204);
      assertThat(second.get().statusCode()).isEqualTo(204);
      // The second started before the first ended: side by side, not after it.
      List<CapacityTarget.Request> requests = target.requests();
      CapacityTarget.Request one = served(requests, 1);
      CapacityTarget.Request two = served(requests, 2);
      assertThat(two.startNanos()).isLessThan(one.endNanos());
    }
  }

  private static CapacityTarget.Request served(List<CapacityTarget.Request> requests, long serial) {
    return requests.stream().filter(r -> r.serial() == serial).findFirst().orElseThrow();
  }
}
