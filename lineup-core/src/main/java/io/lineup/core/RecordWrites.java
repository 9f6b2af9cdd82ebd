package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.model.RedisUnavailableException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The combined writes of {@link RecordStore#putAsync}, by collection: one for all of an engine's
 * record stores, so that concurrent puts to one collection share HSETs whichever store object they
 * came through ({@link CallCoalescer} keyed by the collection's name).
 */
final class RecordWrites {
  private final CallCoalescer<String, Map.Entry<String, String>, Boolean> coalescer;

  RecordWrites(RedisStore store, LineupOptions options) {
    long timeoutMs = options.commandTimeout().toMillis();
    this.coalescer =
        CallCoalescer.of(
            options,
            (collection, records) -> {
              Map<String, String> fields = new LinkedHashMap<>();
              for (Map.Entry<String, String> record : records) {
                fields.put(record.getKey(), record.getValue()); // one id twice: the later wins
              }
              // A timeout of the write itself: a call Redis never answers frees its place.
              return store
                  .putRecordsAsync(collection, fields)
                  .orTimeout(timeoutMs, TimeUnit.MILLISECONDS)
                  .handle((stored, error) -> {
                    if (error != null) {
                      throw new CompletionException(failure(collection, error, timeoutMs));
                    }
                    return Collections.nCopies(records.size(), Boolean.TRUE);
                  });
            });
  }

  /** Puts one checked record; completes once it is stored (see {@link RecordStore#putAsync}). */
  CompletableFuture<Void> put(String collection, Map.Entry<String, String> record) {
    long bytes = (long) record.getKey().length() + record.getValue().length();
    return coalescer.submit(collection, List.of(record), bytes).thenApply(stored -> null);
  }

  private static RuntimeException failure(String collection, Throwable error, long timeoutMs) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof TimeoutException) {
      return new RedisUnavailableException(
          "Redis did not store records of " + collection + " within " + timeoutMs + " ms", cause);
    }
    return cause instanceof RuntimeException r
        ? r
        : new RedisUnavailableException("records of " + collection + " were not stored", cause);
  }
}
