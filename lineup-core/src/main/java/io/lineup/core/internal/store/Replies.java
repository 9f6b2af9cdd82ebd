package io.lineup.core.internal.store;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/** Reads script replies: Lua numbers arrive as Long, strings as byte[], tables as List. */
public final class Replies {
  private Replies() {}

  public static long asLong(Object value) {
    if (value instanceof Long l) {
      return l;
    }
    if (value instanceof byte[] b) {
      return Long.parseLong(new String(b, StandardCharsets.US_ASCII));
    }
    throw new IllegalStateException("Expected a number in a script reply, got " + value);
  }

  public static double asDouble(Object value) {
    if (value instanceof Long l) {
      return l;
    }
    return Double.parseDouble(asString(value));
  }

  public static String asString(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof byte[] b) {
      return new String(b, StandardCharsets.UTF_8);
    }
    return value.toString();
  }

  public static byte[] asBytes(Object value) {
    if (value instanceof byte[] b) {
      return b;
    }
    if (value == null) {
      return new byte[0];
    }
    return value.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Text, or null when empty. */
  public static String asOptionalString(Object value) {
    String text = asString(value);
    return text == null || text.isEmpty() ? null : text;
  }

  /** An epoch-millisecond field, or null when 0 (absent). */
  public static Instant asInstant(Object value) {
    long ms = asLong(value);
    return ms == 0 ? null : Instant.ofEpochMilli(ms);
  }

  @SuppressWarnings("unchecked")
  public static List<Object> asList(Object value) {
    return (List<Object>) value;
  }
}
