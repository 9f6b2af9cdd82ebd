package io.lineup.dispatch.egress;

import java.net.InetAddress;
import java.util.Locale;

/**
 * One entry of the operator's egress allow list: a block of addresses or a host name, on any port
 * or on one.
 *
 * @param block the addresses allowed, or null for an entry by host name
 * @param host the host name allowed (lower case, no trailing dot), or null for an entry by address
 * @param port the one port allowed, or -1 for any
 */
public record AllowEntry(AddressBlock block, String host, int port) {
  /**
   * Reads one entry: {@code 127.0.0.1}, {@code 10.0.0.0/8}, {@code fd00::/8}, {@code ::1}, {@code
   * [::1]:8080}, {@code [fd00::/8]:443}, {@code 10.1.2.3:8080}, {@code 10.0.0.0/8:8080}, {@code
   * internal.example.com} or {@code internal.example.com:8443}. An IPv6 address with a port goes in
   * brackets.
   *
   * @throws IllegalArgumentException when the entry is none of these
   */
  public static AllowEntry parse(String entry) {
    String text = entry.trim();
    if (text.isEmpty()) {
      throw new IllegalArgumentException("an entry is empty");
    }
    String target = text;
    int port = -1;
    if (text.startsWith("[")) {
      int close = text.indexOf(']');
      if (close < 0) {
        throw new IllegalArgumentException("'" + text + "' has no closing ]");
      }
      target = text.substring(1, close);
      String rest = text.substring(close + 1);
      if (!rest.isEmpty()) {
        if (!rest.startsWith(":")) {
          throw new IllegalArgumentException("'" + text + "' has text after ]");
        }
        port = port(text, rest.substring(1));
      }
    } else if (text.indexOf(':') >= 0 && text.indexOf(':') == text.lastIndexOf(':')) {
      int colon = text.indexOf(':');
      target = text.substring(0, colon);
      port = port(text, text.substring(colon + 1));
    }
    if (target.indexOf('/') >= 0 || NumericHost.parse(target).isPresent()) {
      try {
        return new AllowEntry(AddressBlock.parse(target), null, port);
      } catch (IllegalArgumentException notABlock) {
        throw new IllegalArgumentException("'" + text + "': " + notABlock.getMessage(), notABlock);
      }
    }
    String host = target.toLowerCase(Locale.ROOT);
    if (host.endsWith(".")) {
      host = host.substring(0, host.length() - 1);
    }
    if (!host.matches("[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")) {
      throw new IllegalArgumentException(
          "'" + text + "' is not an address, a block or a host name");
    }
    return new AllowEntry(null, host, port);
  }

  private static int port(String entry, String text) {
    if (!text.matches("[0-9]{1,5}")
        || Integer.parseInt(text) < 1
        || Integer.parseInt(text) > 65535) {
      throw new IllegalArgumentException("'" + entry + "' has a port outside 1-65535");
    }
    return Integer.parseInt(text);
  }

  /**
   * Whether this entry allows a connection.
   *
   * @param host the URL's host as sent (a name, or an address literal)
   * @param address the address the host resolved to
   * @param port the port connected to
   */
  public boolean allows(String host, InetAddress address, int port) {
    if (this.port >= 0 && this.port != port) {
      return false;
    }
    if (block != null) {
      return block.contains(address);
    }
    String name = host.toLowerCase(Locale.ROOT);
    if (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1);
    }
    return name.equals(this.host);
  }

  @Override
  public String toString() {
    String what = block != null ? block.toString() : host;
    if (port < 0) {
      return what;
    }
    return (block != null && what.indexOf(':') >= 0 ? "[" + what + "]" : what) + ":" + port;
  }
}
