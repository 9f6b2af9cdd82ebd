package io.lineup.core.internal.store;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Builds a script's ARGV as byte arrays: numbers and text as UTF-8, payloads as they are. */
public final class Args {
  private static final byte[] EMPTY = new byte[0];
  private final List<byte[]> values;

  public Args() {
    this(16);
  }

  public Args(int expected) {
    values = new ArrayList<>(expected);
  }

  public Args add(String value) {
    values.add(value == null ? EMPTY : value.getBytes(StandardCharsets.UTF_8));
    return this;
  }

  public Args add(long value) {
    values.add(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
    return this;
  }

  public Args add(double value) {
    values.add(Double.toString(value).getBytes(StandardCharsets.US_ASCII));
    return this;
  }

  public Args add(byte[] value) {
    values.add(value == null ? EMPTY : value);
    return this;
  }

  public int size() {
    return values.size();
  }

  public byte[][] toArray() {
    return values.toArray(new byte[0][]);
  }
}
