package io.lineup.server.api;

import io.javalin.http.Context;
import io.lineup.server.http.ApiException;
import java.util.Locale;

/**
 * How answers carry stored bytes (payloads, results): the query parameter {@value #PARAMETER} of
 * the routes that answer jobs ({@code GET …/jobs/{id}}, {@code POST …/leases}, {@code GET …/dead}).
 */
public enum PayloadEncoding {
  /**
   * The default: {@code payload} when the bytes are one JSON value, else {@code payload_base64}.
   * Bytes published as base64 that happen to be JSON text (e.g. {@code " 5"}) come back as the JSON
   * value ({@code 5}), without their exact spacing.
   */
  JSON,
  /** Always {@code payload_base64} (and {@code result_base64}): the exact bytes stored. */
  BASE64;

  /** The query parameter that chooses the encoding. */
  public static final String PARAMETER = "payload_encoding";

  /**
   * The encoding a request asks for; {@link #JSON} when it names none.
   *
   * @throws ApiException 400 {@code invalid_field} when the parameter is neither {@code json} nor
   *     {@code base64}
   */
  public static PayloadEncoding of(Context ctx) {
    String value = ctx.queryParam(PARAMETER);
    if (value == null || value.isEmpty()) {
      return JSON;
    }
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "json" -> JSON;
      case "base64" -> BASE64;
      default -> throw ApiException.invalidField(PARAMETER, "must be json or base64");
    };
  }
}
