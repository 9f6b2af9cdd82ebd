package io.lineup.server.dispatch;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Reads a response body into memory up to a limit: the first {@code limit} bytes, or {@code limit +
 * 1} when there are more (so the reader knows it was cut), after which the rest is not read and the
 * connection is given up. A response body is collected straight from the client's buffers, without
 * the blocking stream and extra thread a {@code BodyHandlers.ofInputStream()} costs.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
  private final CompletableFuture<byte[]> body = new CompletableFuture<>();
  private final CappedBytes bytes;
  private Flow.Subscription subscription;

  /**
   * @param limit the most bytes kept; one more is kept when the body is longer
   */
  BoundedBody(int limit) {
    this.bytes = new CappedBytes(limit);
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    subscription.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> buffers) {
    if (body.isDone()) {
      return;
    }
    for (ByteBuffer buffer : buffers) {
      if (bytes.add(buffer)) {
        // Cut: the rest is not wanted.
        body.complete(bytes.bytes());
        subscription.cancel();
        return;
      }
    }
  }

  @Override
  public void onError(Throwable error) {
    body.completeExceptionally(error);
  }

  @Override
  public void onComplete() {
    body.complete(bytes.bytes());
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return body;
  }
}
