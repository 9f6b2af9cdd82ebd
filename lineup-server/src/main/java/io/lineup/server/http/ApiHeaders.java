package io.lineup.server.http;

import java.util.function.BiConsumer;

/**
 * Headers every {@code /v1} answer carries, whichever way it is served (the servlet routes, the
 * core lane, an error): the JSON is never read as another type ({@code X-Content-Type-Options:
 * nosniff}) and never kept by a browser or a proxy ({@code Cache-Control: no-store}), since it
 * holds job data that a token was needed to read.
 */
public final class ApiHeaders {
  /** The prefix of the paths whose answers carry these headers. */
  public static final String API_PREFIX = "/v1/";

  /** No guessing of the content type from the bytes. */
  public static final String NOSNIFF = "nosniff";

  /** No copy kept anywhere: every read goes to the server. */
  public static final String NO_STORE = "no-store";

  private ApiHeaders() {}

  /** Whether an answer to this request path carries the headers. */
  public static boolean appliesTo(String path) {
    return path != null && path.startsWith(API_PREFIX);
  }

  /** Puts the headers with {@code put(name, value)}. */
  public static void put(BiConsumer<String, String> put) {
    put.accept("X-Content-Type-Options", NOSNIFF);
    put.accept("Cache-Control", NO_STORE);
  }
}
