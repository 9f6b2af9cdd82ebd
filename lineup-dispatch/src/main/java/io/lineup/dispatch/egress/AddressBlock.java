package io.lineup.dispatch.egress;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * A block of IP addresses in CIDR form ({@code 10.0.0.0/8}, {@code fe80::/10}), or one address.
 * IPv4 addresses carried in IPv6 form (IPv4-mapped {@code ::ffff:a.b.c.d}, IPv4-compatible {@code
 * ::a.b.c.d} and the NAT64 prefix {@code 64:ff9b::/96}) are compared as the IPv4 address they carry
 * ({@link #canonical}), so {@code ::ffff:127.0.0.1} is in {@code 127.0.0.0/8}.
 *
 * @param network the first address, with the bits past the prefix cleared
 * @param prefixLength the bits that count, 0 to 32 (IPv4) or 128 (IPv6)
 */
public record AddressBlock(InetAddress network, int prefixLength) {
  private static final byte[] NAT64_PREFIX = {
    0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 0, 0, 0, 0, 0, 0, 0
  };

  /** A block, with the bits of {@code network} past the prefix cleared. */
  public AddressBlock {
    network = canonical(network);
    int bits = network.getAddress().length * 8;
    if (prefixLength < 0 || prefixLength > bits) {
      throw new IllegalArgumentException(
          "a prefix length of " + prefixLength + " does not fit " + network.getHostAddress());
    }
    network = masked(network, prefixLength);
  }

  /**
   * Reads {@code 10.0.0.0/8}, {@code fd00::/8} or a single address ({@code 10.1.2.3}, {@code ::1},
   * taken as /32 or /128). The address may be in any numeric form {@link NumericHost} reads.
   *
   * @throws IllegalArgumentException when the text is not an address or a CIDR block
   */
  public static AddressBlock parse(String text) {
    int slash = text.indexOf('/');
    String address = slash < 0 ? text : text.substring(0, slash);
    InetAddress parsed =
        NumericHost.parse(address)
            .orElseThrow(() -> new IllegalArgumentException("'" + text + "' is not an address"));
    parsed = canonical(parsed);
    int bits = parsed.getAddress().length * 8;
    if (slash < 0) {
      return new AddressBlock(parsed, bits);
    }
    String length = text.substring(slash + 1);
    if (!length.matches("[0-9]{1,3}")) {
      throw new IllegalArgumentException("'" + text + "' has no valid prefix length");
    }
    int prefix = Integer.parseInt(length);
    // A mapped IPv6 block (::ffff:10.0.0.0/104) is the IPv4 block it carries.
    if (bits == 32 && address.indexOf(':') >= 0) {
      prefix -= 96;
    }
    return new AddressBlock(parsed, prefix);
  }

  /** Whether the address is in this block (compared in its {@link #canonical} form). */
  public boolean contains(InetAddress address) {
    InetAddress plain = canonical(address);
    if (plain.getClass() != network.getClass()) {
      return false;
    }
    return masked(plain, prefixLength).equals(network);
  }

  /**
   * The address as the check compares it: an IPv4 address carried in IPv6 form becomes that IPv4
   * address; others are unchanged (scope ids dropped).
   */
  public static InetAddress canonical(InetAddress address) {
    if (address instanceof Inet4Address) {
      return address;
    }
    byte[] bytes = address.getAddress();
    boolean zeros = true;
    for (int i = 0; i < 10; i++) {
      zeros &= bytes[i] == 0;
    }
    boolean mapped = zeros && bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
    boolean compatible = zeros && bytes[10] == 0 && bytes[11] == 0 && !lowAddress(bytes);
    boolean nat64 = Arrays.equals(bytes, 0, 12, NAT64_PREFIX, 0, 12);
    try {
      if (mapped || compatible || nat64) {
        return InetAddress.getByAddress(Arrays.copyOfRange(bytes, 12, 16));
      }
      return address instanceof Inet6Address six && six.getScopeId() != 0
          ? InetAddress.getByAddress(bytes)
          : address;
    } catch (UnknownHostException cannotHappen) {
      throw new IllegalStateException(cannotHappen);
    }
  }

  /** {@code ::} and {@code ::1}, which are IPv6's own and carry no IPv4 address. */
  private static boolean lowAddress(byte[] bytes) {
    for (int i = 12; i < 15; i++) {
      if (bytes[i] != 0) {
        return false;
      }
    }
    return bytes[15] == 0 || bytes[15] == 1;
  }

  private static InetAddress masked(InetAddress address, int prefixLength) {
    byte[] bytes = address.getAddress();
    for (int i = 0; i < bytes.length; i++) {
      int keep = Math.max(0, Math.min(8, prefixLength - i * 8));
      bytes[i] &= (byte) (0xFF << (8 - keep));
    }
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException cannotHappen) {
      throw new IllegalStateException(cannotHappen);
    }
  }

  @Override
  public String toString() {
    return network.getHostAddress() + "/" + prefixLength;
  }
}
