package io.lineup.spring;

import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;

/**
 * The one rule for payloads and results, both ways: bytes as they are, text as UTF-8, anything else
 * through the {@link PayloadCodec}.
 */
final class Payloads {
  private Payloads() {}

  /** Bytes for a value; null makes an empty payload. */
  static byte[] encode(Object value, PayloadCodec codec) {
    if (value == null) {
      return new byte[0];
    }
    if (value instanceof byte[] bytes) {
      return bytes;
    }
    if (value instanceof String text) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    return codec.encode(value);
  }

  /** A value of {@code type} from bytes. */
  static Object decode(byte[] bytes, Type type, PayloadCodec codec) {
    if (type == byte[].class) {
      return bytes;
    }
    if (type == String.class) {
      return new String(bytes, StandardCharsets.UTF_8);
    }
    return codec.decode(bytes, type);
  }
}
