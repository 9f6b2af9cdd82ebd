package io.lineup.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** A small HTTP client for the server's API, acting with one token. */
final class Api {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private final String baseUrl;
  private final String token;
  private final Map<String, String> headers;

  Api(String baseUrl, String token) {
    this(baseUrl, token, Map.of());
  }

  private Api(String baseUrl, String token, Map<String, String> headers) {
    this.baseUrl = baseUrl;
    this.token = token;
    this.headers = headers;
  }

  /** The admin's API client for a server. */
  static Api adminOf(LineupServer server) {
    return new Api(server.baseUrl(), server.adminToken());
  }

  /** The same API acting with another token (null for none). */
  Api as(String otherToken) {
    return new Api(baseUrl, otherToken, headers);
  }

  /** The same API sending an extra header. */
  Api withHeader(String name, String value) {
    var more = new java.util.LinkedHashMap<>(headers);
    more.put(name, value);
    return new Api(baseUrl, token, more);
  }

  Reply get(String path) {
    return send("GET", path, null);
  }

  Reply delete(String path) {
    return send("DELETE", path, null);
  }

  Reply post(String path, String json) {
    return send("POST", path, json);
  }

  Reply put(String path, String json) {
    return send("PUT", path, json);
  }

  Reply patch(String path, String json) {
    return send("PATCH", path, json);
  }

  /** Any method, any body (null for none). */
  Reply send(String method, String path, String body) {
    return send(method, path, body, Duration.ofSeconds(30));
  }

  /** Any method with a request timeout. */
  Reply send(String method, String path, String body, Duration timeout) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(timeout)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    headers.forEach(request::header);
    try {
      return Reply.of(CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
