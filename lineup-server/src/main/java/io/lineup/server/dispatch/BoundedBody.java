package io.lineup.server.dispatch;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Arrays;
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
  private final int limit;
  private final CompletableFuture<byte[]> body = new CompletableFuture<>();
  private Flow.Subscription subscription;
  private byte[] bytes = new byte[0];
  private int size;

  /**
   * @param limit the most bytes kept; one more is kept when the body is longer
   */
  BoundedBody(int limit) {
    this.limit = limit;
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
      int take = Math.min(buffer.remaining(), limit + 1 - size);
      if (size + take > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.min(limit + 1, Math.max(size + take, bytes.length * 2)));
      }
      buffer.get(bytes, size, take);
      size += take;
      if (size > limit) {
        // Cut: the rest is not wanted.
        body.complete(Arrays.copyOf(bytes, size));
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
    body.complete(size == bytes.length ? bytes : Arrays.copyOf(bytes, size));
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return body;
  }
}
