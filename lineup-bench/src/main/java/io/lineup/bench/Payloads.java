package io.lineup.bench;

import java.nio.charset.StandardCharsets;

/** The payload every scenario publishes: JSON text of exactly {@link #BYTES} bytes. */
final class Payloads {
  /** Payload size of every published job, in bytes (issue 4: 100-byte payloads). */
  static final int BYTES = 100;

  private static final byte[] PAYLOAD = json(BYTES);

  private Payloads() {}

  /** The shared payload; callers must not change it. */
  static byte[] payload() {
    return PAYLOAD;
  }

  /** The payload as text, for HTTP bodies. */
  static String text() {
    return new String(PAYLOAD, StandardCharsets.UTF_8);
  }

  /** {@code {"order":1234567,"note":"xx…"}} padded to {@code bytes} bytes. */
  static byte[] json(int bytes) {
    String head = "{\"order\":1234567,\"note\":\"";
    String tail = "\"}";
    int pad = bytes - head.length() - tail.length();
    if (pad < 0) {
      throw new IllegalArgumentException("payload too small: " + bytes);
    }
    return (head + "x".repeat(pad) + tail).getBytes(StandardCharsets.UTF_8);
  }
}
