package io.lineup.dispatch.egress;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads a URL's host the way system resolvers read numeric hosts, so that the egress check sees the
 * address a connection would really go to: an IPv6 literal (with or without brackets), or an IPv4
 * address in any of the forms {@code inet_aton} takes: one to four parts separated by dots, each
 * decimal, octal (a leading {@code 0}) or hexadecimal ({@code 0x}), the last part filling the bytes
 * left ({@code 2130706433}, {@code 0x7f.1}, {@code 127.1} and {@code 017700000001} are all
 * 127.0.0.1). One trailing dot is ignored, as resolvers do. Anything else is a host name.
 */
public final class NumericHost {
  private NumericHost() {}

  /**
   * The address a numeric host names, without any DNS lookup.
   *
   * @param host a URL's host, e.g. {@code 10.0.0.1}, {@code [::1]}, {@code 0x7f.1}, {@code
   *     example.com}
   * @return the address, or empty when the host is a name (or malformed)
   */
  public static Optional<InetAddress> parse(String host) {
    if (host == null || host.isEmpty()) {
      return Optional.empty();
    }
    String text = host;
    if (text.startsWith("[") && text.endsWith("]")) {
      text = text.substring(1, text.length() - 1);
    }
    if (text.indexOf(':') >= 0) {
      return ipv6(text);
    }
    if (text.endsWith(".")) {
      text = text.substring(0, text.length() - 1);
    }
    return ipv4(text.toLowerCase(Locale.ROOT));
  }

  private static Optional<InetAddress> ipv6(String text) {
    // A zone id ("%eth0") names an interface, not an address: the check needs the address only.
    int zone = text.indexOf('%');
    String address = zone < 0 ? text : text.substring(0, zone);
    for (int i = 0; i < address.length(); i++) {
      char c = address.charAt(i);
      if (Character.digit(c, 16) < 0 && c != ':' && c != '.') {
        return Optional.empty();
      }
    }
    try {
      // A text with a colon is parsed as a literal by the JDK, never looked up.
      return Optional.of(InetAddress.getByName(address));
    } catch (UnknownHostException | SecurityException malformed) {
      return Optional.empty();
    }
  }

  private static Optional<InetAddress> ipv4(String text) {
    String[] parts = text.split("\\.", -1);
    if (parts.length > 4) {
      return Optional.empty();
    }
    long[] values = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      long value = part(parts[i]);
      if (value < 0) {
        return Optional.empty();
      }
      values[i] = value;
    }
    long address = 0;
    for (int i = 0; i < values.length - 1; i++) {
      if (values[i] > 0xFF) {
        return Optional.empty();
      }
      address |= values[i] << (24 - 8 * i);
    }
    long last = values[values.length - 1];
    long lastMax = (1L << (8 * (5 - values.length))) - 1;
    if (last > lastMax) {
      return Optional.empty();
    }
    address |= last;
    byte[] bytes = {
      (byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address
    };
    try {
      return Optional.of(InetAddress.getByAddress(bytes));
    } catch (UnknownHostException cannotHappen) {
      throw new IllegalStateException(cannotHappen);
    }
  }

  /** One part's value (decimal, octal or hex), or -1 when it is not a number up to 2^32 - 1. */
  private static long part(String part) {
    int radix = 10;
    String digits = part;
    if (part.startsWith("0x")) {
      radix = 16;
      digits = part.substring(2);
    } else if (part.length() > 1 && part.startsWith("0")) {
      radix = 8;
      digits = part.substring(1);
    }
    if (digits.isEmpty() || digits.length() > 32) {
      return -1;
    }
    long value = 0;
    for (int i = 0; i < digits.length(); i++) {
      int digit = Character.digit(digits.charAt(i), radix);
      if (digit < 0) {
        return -1;
      }
      value = value * radix + digit;
      if (value > 0xFFFF_FFFFL) {
        return -1;
      }
    }
    return value;
  }
}
