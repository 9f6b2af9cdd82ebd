package io.lineup.core.internal.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads msgpack values one after another from bytes, as Redis's Lua {@code cmsgpack.pack} writes
 * them: nil, booleans, integers, floats, strings (also bin) and array headers. Maps and extension
 * types never occur in what the scripts pack and are refused.
 */
final class MsgpackReader {
  private final byte[] bytes;
  private int at;
  private final int end;

  /** Reads {@code length} bytes of {@code bytes} from {@code offset}. */
  MsgpackReader(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.at = offset;
    this.end = offset + length;
  }

  /** Whether another value follows. */
  boolean hasNext() {
    return at < end;
  }

  /**
   * The next value as a number: integers as they are, floats cut to a long, nil, false and the
   * empty string as 0.
   *
   * @throws IllegalArgumentException when the next value is no number, nil, boolean or empty text
   */
  long readLong() {
    int b = next();
    if (b <= 0x7f) {
      return b;
    }
    if (b >= 0xe0) {
      return (byte) b;
    }
    return switch (b) {
      case 0xc0, 0xc2, 0xa0 -> 0;
      case 0xc3 -> 1;
      case 0xcc -> next();
      case 0xcd -> bigEndian(2);
      case 0xce -> bigEndian(4);
      case 0xcf, 0xd3 -> bigEndian(8);
      case 0xd0 -> (byte) next();
      case 0xd1 -> (short) bigEndian(2);
      case 0xd2 -> (int) bigEndian(4);
      case 0xca -> (long) Float.intBitsToFloat((int) bigEndian(4));
      case 0xcb -> (long) Double.longBitsToDouble(bigEndian(8));
      default -> throw malformed(b, "a number");
    };
  }

  /**
   * The next value as bytes, or null for nil, false, 0 and the empty string (how the scripts write
   * an absent text).
   *
   * @throws IllegalArgumentException when the next value is of another kind
   */
  byte[] readBytesOrNull() {
    int b = peek();
    if (b == 0xc0 || b == 0xc2 || b == 0x00) {
      at++;
      return null;
    }
    int length;
    if ((b & 0xe0) == 0xa0) {
      at++;
      length = b & 0x1f;
    } else {
      at++;
      length =
          switch (b) {
            case 0xd9, 0xc4 -> next();
            case 0xda, 0xc5 -> (int) bigEndian(2);
            case 0xdb, 0xc6 -> (int) bigEndian(4);
            default -> throw malformed(b, "a text");
          };
    }
    if (length < 0 || length > end - at) {
      throw new IllegalArgumentException("a msgpack text runs past its end");
    }
    if (length == 0) {
      return null;
    }
    byte[] value = Arrays.copyOfRange(bytes, at, at + length);
    at += length;
    return value;
  }

  /** The next value as UTF-8 text, or null as {@link #readBytesOrNull} says. */
  String readTextOrNull() {
    byte[] value = readBytesOrNull();
    return value == null ? null : new String(value, StandardCharsets.UTF_8);
  }

  /**
   * The element count of the array that starts here; its elements follow.
   *
   * @throws IllegalArgumentException when no array starts here
   */
  int readArrayHeader() {
    int b = next();
    if ((b & 0xf0) == 0x90) {
      return b & 0x0f;
    }
    return switch (b) {
      case 0xdc -> (int) bigEndian(2);
      case 0xdd -> (int) bigEndian(4);
      default -> throw malformed(b, "an array");
    };
  }

  /** Whether the next value is an array. */
  boolean nextIsArray() {
    int b = peek();
    return (b & 0xf0) == 0x90 || b == 0xdc || b == 0xdd;
  }

  /** Passes over the next value (an array with its elements). */
  void skip() {
    int b = peek();
    if ((b & 0xe0) == 0xa0 || b == 0xd9 || b == 0xda || b == 0xdb || (b >= 0xc4 && b <= 0xc6)) {
      readBytesOrNull();
    } else if ((b & 0xf0) == 0x90 || b == 0xdc || b == 0xdd) {
      for (int n = readArrayHeader(); n > 0; n--) {
        skip();
      }
    } else {
      readLong();
    }
  }

  private int peek() {
    if (at >= end) {
      throw new IllegalArgumentException("msgpack ends early");
    }
    return bytes[at] & 0xff;
  }

  private int next() {
    int b = peek();
    at++;
    return b;
  }

  private long bigEndian(int n) {
    if (n > end - at) {
      throw new IllegalArgumentException("msgpack ends early");
    }
    long value = 0;
    for (int i = 0; i < n; i++) {
      value = (value << 8) | (bytes[at++] & 0xff);
    }
    return value;
  }

  private static IllegalArgumentException malformed(int type, String wanted) {
    return new IllegalArgumentException(
        "msgpack type 0x" + Integer.toHexString(type) + " where " + wanted + " was expected");
  }
}
