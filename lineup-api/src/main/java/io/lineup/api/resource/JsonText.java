package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.annotation.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One JSON value kept as its text and written as is, without a second parse: a payload, a result or
 * a response body stored as JSON. A reader needs a deserializer that turns any JSON value into its
 * text (Jackson's annotations cannot say that); the client registers one.
 *
 * @param json the value's JSON text, e.g. {@code {"order":42}} or {@code null}
 */
public record JsonText(@JsonValue @JsonRawValue String json) {
  /** The JSON {@code null}: written as {@code null} where a field is present but has no value. */
  public static final JsonText NULL = new JsonText("null");

  /**
   * @throws NullPointerException when {@code json} is null
   */
  public JsonText {
    Objects.requireNonNull(json, "json");
  }

  /** Whether this is the JSON {@code null}. */
  public boolean nullValue() {
    return json.equals(NULL.json);
  }

  /** The text as UTF-8 bytes. */
  public byte[] bytes() {
    return json.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The bytes of a field kept as JSON under {@code name} or as base64 under {@code name_base64}.
   *
   * @param json the value under {@code name}, or null
   * @param base64 the value under {@code name_base64}, or null
   * @return the bytes, or null when neither holds a value
   * @throws IllegalArgumentException when {@code base64} is not base64
   */
  public static byte[] bytes(JsonText json, String base64) {
    if (base64 != null) {
      return java.util.Base64.getDecoder().decode(base64);
    }
    return json == null || json.nullValue() ? null : json.bytes();
  }
}
